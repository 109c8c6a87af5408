import type { PlantRequest } from '@plantstore/core/adapter';
import type { Request } from 'express';

/** The body half of a {@link PlantRequest}: the raw stream or bytes, or what a host parser made. */
export type RequestBody = Pick<PlantRequest, 'body' | 'parsedBody'>;

/**
 * Hands the core the body in the most exact form still available. Unread, the request itself (the
 * core reads it with its limit and time-out). Read by a host parser: the raw body it kept in
 * `req.rawBody` (`keepRawBody`, NestJS's `rawBody: true`), else what it left in `req.body`
 * (`express.text()` and `express.raw()` text or bytes stay exact; `express.json()`'s value loses ids
 * past 2^53).
 *
 * @param req - the Express request
 * @returns `body` or `parsedBody` for the core
 * @example
 * ```ts
 * service.handle({ method: req.method, path: req.path, headers: nodeHeaderReader(req), ...requestBody(req) });
 * ```
 */
export function requestBody(req: Request): RequestBody {
  // body-parser 1 (Express 4) flags `_body` before reading; body-parser 2 (Express 5) leaves no flag,
  // only an ended stream. `req.body` alone proves nothing: body-parser 1 sets `{}` when it skips.
  const consumed = (req as { _body?: unknown })._body === true || req.readableEnded;
  if (!consumed) return { body: req };
  // The bytes a `verify` kept are the body as sent, whatever the parser then made of them.
  const { rawBody } = req as { rawBody?: unknown };
  if (rawBody instanceof Uint8Array || typeof rawBody === 'string') return { body: rawBody };
  const parsed: unknown = req.body;
  // Read by something that kept nothing: the core answers 400 `body_aborted` (already consumed).
  return parsed === undefined ? { body: req } : { parsedBody: parsed };
}

import {
  lingerOnClose,
  nodeHeaderReader,
  type PlantAnswer,
  type PlantRequest,
} from '@plantstore/core/adapter';
import type { ParameterizedContext } from 'koa';

/** What body parsers leave on `ctx.request`; read structurally so no parser's typings are needed. */
interface ParsedKoaRequest {
  /** The text `@koa/bodyparser` and `koa-bodyparser` keep beside the parsed value; or bytes. */
  readonly rawBody?: unknown;
  readonly body?: unknown;
}

/**
 * Translates a Koa context into the core's request. The body is, in order of preference: the raw
 * text or bytes a host body parser kept (`ctx.request.rawBody`: ids stay exact), the unread stream
 * (the core reads it with its limit and time-out), or what a parser left after consuming the stream
 * (the core tells text and bytes from a parsed value). A stream consumed with nothing left is handed over as it
 * is; the core answers 400 `body_aborted`.
 *
 * @param ctx - the Koa context of a request the route claims
 * @returns the request for `service.handle`
 */
export function toPlantRequest(ctx: ParameterizedContext): PlantRequest {
  const { rawBody, body: parsed } = ctx.request as ParsedKoaRequest;
  let body: PlantRequest['body'];
  let parsedBody: unknown;
  if (typeof rawBody === 'string' || rawBody instanceof Uint8Array) body = rawBody;
  // koa-bodyparser sets `body = {}` on requests it skips without reading, so only the stream tells.
  else if (!ctx.req.readableEnded || parsed === undefined) body = ctx.req;
  else parsedBody = parsed;
  return {
    method: ctx.method,
    path: ctx.path,
    // The path as the client sent it, before a koa-mount stripped one: DPoP proofs name it (`htu`).
    originalUrl: ctx.originalUrl,
    headers: nodeHeaderReader(ctx.req),
    // The connection, for the TLS client certificate a bound token needs (RFC 8705).
    socket: ctx.req.socket,
    matched: true,
    body,
    parsedBody,
  };
}

/**
 * Writes an answer of the core through Koa, so upstream middleware still sees and can decorate it.
 * `Content-Type` is set before the body, so Koa keeps it; the body is a string, so it is sent as is.
 * `Vary` is added to, not replaced: a CORS middleware may have set `Vary: Origin` already. An
 * answer that closes the connection before the body was read closes it gently (`lingerOnClose`).
 *
 * @param ctx - the Koa context
 * @param answer - the core's answer
 */
export function writeAnswer(ctx: ParameterizedContext, answer: PlantAnswer): void {
  ctx.status = answer.status;
  const { headers } = answer;
  for (const name in headers) {
    const value = headers[name] as string;
    // Koa's `vary` parses and merges; only a Vary set already needs it.
    if (name === 'vary' && ctx.res.getHeader('vary') !== undefined) ctx.vary(value);
    else ctx.set(name, value);
  }
  ctx.body = answer.body;
  lingerOnClose(ctx.res, answer);
}

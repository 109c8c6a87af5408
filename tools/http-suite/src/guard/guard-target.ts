import type { GuardOptions, PlantServiceOptions } from '@plantstore/core';
import type { ContractHost } from '../hosts/target';

/**
 * A host app with the plant route and three guarded routes beside it, all from one service, under
 * the base `url` of its {@link ContractHost}:
 *
 * - `POST {url}/plants`: the plant route;
 * - `GET {url}/things`: guarded with no options of its own;
 * - `DELETE {url}/things/:id`: guarded likewise; its handler reads the body itself;
 * - `GET {url}/admin`: guarded with {@link ADMIN_GUARD}, through the host's per-route way (Fastify's
 *   route `config.guard`, a second middleware elsewhere).
 *
 * Each guarded handler answers 200 with {@link guardedBody}.
 */
export interface GuardTarget {
  start(options: PlantServiceOptions): Promise<ContractHost>;
}

/** The per-route checks of `GET {url}/admin`. */
export const ADMIN_GUARD: GuardOptions = {
  requiredScopes: ['plants:admin', 'plants:owner'],
  scopeMatch: 'any',
  claims: { tenant: ['acme', 'initech'] },
};

/**
 * The body a guarded handler answers: the method, the principal's subject as the host hands it to
 * the handler (`req.auth`, `ctx.state.auth`, `request.auth`), and the request body's bytes as the
 * handler read them, in base64.
 *
 * @param method - the request's method
 * @param subject - the principal's subject
 * @param bytes - the body the handler read
 * @returns the JSON text
 * @example
 * ```ts
 * res.json(JSON.parse(guardedBody(req.method, req.auth?.subject, await readAll(req))));
 * ```
 */
export function guardedBody(
  method: string,
  subject: string | undefined,
  bytes: Uint8Array,
): string {
  return JSON.stringify({
    method,
    subject: subject ?? null,
    body: Buffer.from(bytes).toString('base64'),
  });
}

/**
 * Reads a Node request's body whole, as a handler behind a guard does.
 *
 * @param stream - the request
 * @returns its bytes
 */
export async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

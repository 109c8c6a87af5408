import type { GuardOptions, PlantService, Principal } from '@plantstore/core';
import { nodeHeaderReader, type RequestGuard, requestGuard } from '@plantstore/core/adapter';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendAnswer } from './answer';

// `FastifyRequest` and `FastifyContextConfig` are the merging points of both Fastify 4's and 5's typings.
declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `@plantstore/fastify`'s `guard` once the token was verified: who made the request. */
    auth?: Principal | undefined;
  }
  interface FastifyContextConfig {
    /** This route's own scopes and claims, in place of those the `guard` hook was made with. */
    guard?: GuardOptions | undefined;
  }
}

/** The `onRequest` hook {@link guard} returns. */
export type GuardHook = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * Protects Fastify 4 or 5 routes with the plant route's own auth, as an `onRequest` hook: per route
 * (`{ onRequest: guard(service) }`) or for every route of an encapsulated plugin
 * (`scope.addHook('onRequest', guard(service))`). The same answers for every auth outcome (401
 * with its challenge, 403, 400 for a repeated field, 503 with `Retry-After` on a provider outage),
 * the same hooks and log, one key-set cache and one replay store. A refusal is sent through
 * `reply`, so the host's `onSend` and `onResponse` hooks see it; a verified request goes on with
 * its principal on `request.auth`. It runs before any body is parsed, and reads none.
 *
 * A route's `config.guard` replaces `options` for that route; it is checked the first time the
 * route is asked for (a bad one answers that request 500 through the app's error handler).
 *
 * @param service - the plant route's service (`plantPlugin(…).service` or `createPlantService`)
 * @param options - the routes' required scopes (`scopeMatch: 'any'` for one of them) and claims
 * @returns the hook
 * @throws TypeError at once for anything but such a service, or a bad option
 * @example
 * ```ts
 * const plants = plantPlugin({ store, auth });
 * await app.register(plants, { prefix: '/api' });
 * app.get('/api/things', { onRequest: guard(plants.service) }, async (request) => ({
 *   subject: request.auth?.subject,
 * }));
 * ```
 */
export function guard(service: PlantService, options?: GuardOptions): GuardHook {
  const own = requestGuard(service, options);
  // One guard per route configuration, made (and its options checked) once.
  const byRoute = new WeakMap<GuardOptions, RequestGuard>();
  const guardOf = (request: FastifyRequest): RequestGuard => {
    const routed = request.routeOptions.config.guard;
    if (routed === undefined) return own;
    let check = byRoute.get(routed);
    if (check === undefined) byRoute.set(routed, (check = requestGuard(service, routed)));
    return check;
  };
  return async (request, reply) => {
    const result = await guardOf(request)({
      method: request.method,
      path: pathOf(request.url),
      // The URL as the client sent it, before a `rewriteUrl`: DPoP proofs name it (`htu`).
      originalUrl: request.originalUrl,
      headers: nodeHeaderReader(request.raw),
      // The connection, for the TLS client certificate a bound token needs (RFC 8705).
      socket: request.raw.socket,
    });
    if (result.answer !== undefined) return sendAnswer(reply, result.answer);
    request.auth = result.principal;
    return undefined;
  };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

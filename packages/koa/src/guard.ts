import type { GuardOptions, PlantService, Principal } from '@plantstore/core';
import { nodeHeaderReader, requestGuard } from '@plantstore/core/adapter';
import type { Next, ParameterizedContext } from 'koa';
import { writeAnswer } from './translate';

// `ctx.state.auth`, not koa-jwt's `ctx.state.user`: that key holds raw claims, and apps read it as
// such; `auth` holds a principal (subject, scopes, claims), under the name Express's `req.auth` has.
declare module 'koa' {
  // Merged into Koa's own `DefaultState` (the same name in the Koa 2 and Koa 3 typings).
  interface DefaultState {
    /** Set by `@plantstore/koa`'s `guard` once the token was verified: who made the request. */
    auth?: Principal;
  }
}

/** The middleware {@link guard} returns. */
export type GuardMiddleware = (ctx: ParameterizedContext, next: Next) => Promise<void>;

/**
 * Protects any route of a Koa 2 or 3 app (`app.use`, or a `@koa/router` route) with the plant
 * route's own auth: the same answers for every auth outcome (401 with its challenge, 403, 400 for a
 * repeated field, 503 with `Retry-After` on a provider outage), the same hooks and log, one key-set
 * cache and one replay store. A refusal is written through Koa, so upstream middleware still sees
 * it; a verified request goes on with its principal on `ctx.state.auth`. The body is never read.
 *
 * @param service - the plant route's service (`plantRoutes(…).service` or `createPlantService`)
 * @param options - this route's required scopes (`scopeMatch: 'any'` for one of them) and claims
 * @returns the middleware
 * @throws TypeError at once for anything but such a service, or a bad option
 * @example
 * ```ts
 * const plants = plantRoutes({ store, auth, prefix: '/api' });
 * app.use(plants);
 * router.get('/api/things', guard(plants.service, { requiredScopes: ['things:read'] }), (ctx) => {
 *   ctx.body = { subject: ctx.state.auth?.subject };
 * });
 * ```
 */
export function guard(service: PlantService, options?: GuardOptions): GuardMiddleware {
  const check = requestGuard(service, options);
  return async (ctx, next) => {
    const result = await check({
      method: ctx.method,
      path: ctx.path,
      // The path as the client sent it, before a koa-mount stripped one: DPoP proofs name it (`htu`).
      originalUrl: ctx.originalUrl,
      headers: nodeHeaderReader(ctx.req),
      // The connection, for the TLS client certificate a bound token needs (RFC 8705).
      socket: ctx.req.socket,
    });
    if (result.answer !== undefined) return writeAnswer(ctx, result.answer);
    ctx.state.auth = result.principal;
    await next();
  };
}

import type { GuardOptions, PlantService, Principal } from '@plantstore/core';
import { nodeHeaderReader, requestGuard, writeAnswer } from '@plantstore/core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

// express-jwt and express-oauth2-jwt-bearer put what they verified on `req.auth`: the same place,
// typed for both @types/express 4 and 5 through the global `Express.Request` they merge into.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- the only way to merge into Express.Request
  namespace Express {
    interface Request {
      /** Set by `@plantstore/express`'s `guard` once the token was verified: who made the request. */
      auth?: Principal;
    }
  }
}

/**
 * Protects any route or router of an Express 4 or 5 app with the plant route's own auth: the same
 * answers for every auth outcome (401 with its challenge, 403, 400 for a repeated field, 503 with
 * `Retry-After` on a provider outage), the same hooks and log, one key-set cache and one replay
 * store. A refusal is written here and never reaches the app's error middleware; a verified
 * request goes on with its principal on `req.auth`. The body is never read, so a body parser
 * after it still sees every byte.
 *
 * @param service - the plant route's service (`plantRouter(…).service` or `createPlantService`)
 * @param options - this route's required scopes (`scopeMatch: 'any'` for one of them) and claims
 * @returns the middleware
 * @throws TypeError at once for anything but such a service, or a bad option
 * @example
 * ```ts
 * const plants = plantRouter({ store, auth });
 * app.use('/api', plants);
 * app.get('/api/things', guard(plants.service, { requiredScopes: ['things:read'] }), (req, res) => {
 *   res.json({ subject: req.auth?.subject });
 * });
 * ```
 */
export function guard(service: PlantService, options?: GuardOptions): RequestHandler {
  const check = requestGuard(service, options);
  return (req: Request, res: Response, next: NextFunction): void => {
    check({
      method: req.method,
      path: req.path,
      // The path as the client sent it, mount path included: DPoP proofs name it (`htu`).
      originalUrl: req.originalUrl,
      headers: nodeHeaderReader(req),
      // The connection, for the TLS client certificate a bound token needs (RFC 8705).
      socket: req.socket,
    }).then((result) => {
      if (result.answer !== undefined) return writeAnswer(res, result.answer);
      req.auth = result.principal;
      next();
    }, next);
  };
}

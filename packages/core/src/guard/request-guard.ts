import type { Principal } from '../auth/principal';
import { GUARD_INTERNAL_MESSAGE } from '../errors/public-messages';
import { declaresBody } from '../http/declared-body';
import { headerReader, type PlantAnswer } from '../http/request';
import { type AuthStepRequest, requestAuthOf } from '../service/request-auth';
import type { PlantService } from '../service/plant-service';
import { guardCheck, type GuardOptions } from './guard-options';

/** What a guard hands back: the verified principal, or the refusal to write as it is. */
export type GuardResult =
  | { readonly principal: Principal; readonly answer?: undefined }
  | { readonly principal?: undefined; readonly answer: PlantAnswer };

/**
 * A guard over the request an adapter hands over: its method, path (`originalUrl` for DPoP's
 * `htu`), headers and connection. It never reads the body. Never rejects.
 */
export type RequestGuard = (request: AuthStepRequest) => Promise<GuardResult>;

/**
 * Makes a guard for any route of the host, from the service of the plant route: the same auth
 * step, so the same answers for every auth outcome (401 with the challenge, 403, 400 for a
 * repeated field, 503 on an outage), the same hooks and log, one key-set cache and one replay store.
 * For adapters: `@plantstore/express`, `@plantstore/koa` and `@plantstore/fastify` wrap it, and
 * `guard` (the root entry) wraps it for a Web `Request`.
 *
 * @param service - the plant route's service, made by `createPlantService`
 * @param options - this route's scopes and claims
 * @returns the guard
 * @throws TypeError at once for anything but such a service, or a bad option
 * @example
 * ```ts
 * const check = requestGuard(service, { requiredScopes: ['plants:read'] });
 * const result = await check({ method: req.method, path: req.path, headers: nodeHeaderReader(req), socket: req.socket });
 * if (result.answer !== undefined) writeAnswer(res, result.answer);
 * ```
 */
export function requestGuard(service: PlantService, options?: GuardOptions): RequestGuard {
  const auth = requestAuthOf(service, 'guard');
  const check = guardCheck('guard', options);
  return async (request) => {
    const headers = headerReader(request.headers);
    try {
      return { principal: await auth.authenticate(request, headers, check) };
    } catch (error) {
      // The guard reads no body: one the client declared is still on the connection.
      return {
        answer: auth.refuse(
          error,
          request,
          undefined,
          declaresBody(headers),
          GUARD_INTERNAL_MESSAGE,
        ),
      };
    }
  };
}

import type { Principal } from '../auth/principal';
import { runtimeHeaders } from '../http/runtime-headers';
import { urlPath } from '../http/url-path';
import type { PlantService } from '../service/plant-service';
import { webResponse } from '../service/web-response';
import type { GuardOptions } from './guard-options';
import { requestGuard } from './request-guard';

/** What a fetch guard hands back: the verified principal, or the refusal `Response` to return. */
export type FetchGuardResult =
  | { readonly principal: Principal; readonly response?: undefined }
  | { readonly principal?: undefined; readonly response: Response };

/** A guard for Web-standard hosts: a `Request` in, the principal or the refusal out. Never rejects. */
export type FetchGuard = (request: Request) => Promise<FetchGuardResult>;

/**
 * Protects any route of a Web-standard host (Hono, Next.js route handlers, h3, Elysia, SvelteKit,
 * Workers, the Lambda entry) with the plant route's own auth: the same answers for every auth
 * outcome, the same hooks, one key-set cache and one replay store. The request's body is never read.
 *
 * @param service - the plant route's service, made by `createPlantService`
 * @param options - this route's required scopes (`scopeMatch: 'any'` for one of them) and claims
 * @returns the guard
 * @throws TypeError at once for anything but such a service, or a bad option
 * @example
 * ```ts
 * const canRead = guard(service, { requiredScopes: ['plants:read'] });
 * export async function GET(request: Request): Promise<Response> {
 *   const { principal, response } = await canRead(request);
 *   if (response !== undefined) return response;
 *   return Response.json({ subject: principal.subject });
 * }
 * ```
 */
export function guard(service: PlantService, options?: GuardOptions): FetchGuard {
  const check = requestGuard(service, options);
  return async (request) => {
    const result = await check({
      method: request.method,
      path: urlPath(request.url),
      headers: runtimeHeaders(request.headers),
    });
    return result.answer === undefined
      ? { principal: result.principal }
      : { response: webResponse(result.answer, request.method) };
  };
}

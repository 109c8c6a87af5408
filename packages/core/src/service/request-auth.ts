// The auth step of a request, written once: the plant route (route-service.ts) and every guard
// (guard.ts) call it, so that a host's other routes get the same answers, hooks and log lines.
import { errorAnswer } from './answer';
import { readCredentials } from '../auth/read-credentials';
import { targetPath } from '../auth/dpop/request-url';
import { type AuthScheme, setChallengeContext } from '../errors/challenges';
import { InternalServerError } from '../errors/server-errors';
import { isPlantServiceError, type PlantServiceError } from '../errors/plant-service-error';
import type { HookContext, ResolvedOptions } from './service-options';
import type { Principal } from '../auth/principal';
import { refusedPrincipal, refusedWith } from '../auth/refused-principal';
import type { HeaderReader, PlantAnswer, PlantRequest } from '../http/request';
import { runHook } from './run-hook';
import { hostSetupWarnings } from './logger';
import { RouteAuthRequest } from './route-auth-request';
import { describeValue } from '../options/check-options';

/** A further check of a verified principal (a guard's scopes and claims): it throws to refuse. */
export type PrincipalCheck = (principal: Principal) => void;

/** The request as the auth step reads it: never its body. */
export type AuthStepRequest = Pick<
  PlantRequest,
  'method' | 'path' | 'originalUrl' | 'headers' | 'socket' | 'logger'
>;

/** One service's auth step and refusals, shared by its route and its guards. */
export interface RequestAuth {
  /**
   * Reads the credentials and verifies them: the `Authorization` field, the token, a DPoP proof for
   * this request's method and URL (`publicUrl` and its path), a certificate binding; then `check`.
   * A refusal is thrown with its challenge set for the scheme the request used.
   */
  authenticate(
    request: AuthStepRequest,
    headers: HeaderReader,
    check?: PrincipalCheck,
  ): Promise<Principal>;
  /**
   * The answer to a refusal or failure, once `onRejected`, `onError` and the default log have seen
   * it: the Error shape, the contract's headers, `Connection: close` when the body is left unread.
   * A guard passes its own 500 message: the route's speaks of creating a plant.
   */
  refuse(
    error: unknown,
    request: AuthStepRequest,
    principal: Principal | undefined,
    bodyUnread: boolean,
    internalMessage?: string,
  ): PlantAnswer;
}

/**
 * Makes a service's auth step from its checked options, once: the route and its guards share it,
 * and with it the verifier, its key-set cache and replay store.
 *
 * @param config - the service's checked options
 * @returns the auth step
 * @example
 * ```ts
 * const auth = requestAuth(config);
 * const principal = await auth.authenticate(request, headerReader(request.headers));
 * ```
 */
export function requestAuth(config: ResolvedOptions): RequestAuth {
  const { onRejected, onError, publicUrl, clientCertificateHeader } = config;
  const warnHost = config.logger === undefined ? undefined : hostSetupWarnings(config.logger);
  const acceptsDpop = config.accepts?.dpop !== undefined;

  return {
    async authenticate(request, headers, check) {
      let scheme: AuthScheme = 'Bearer';
      try {
        const credentials = readCredentials(headers('authorization'), acceptsDpop);
        scheme = credentials.scheme;
        const authRequest = new RouteAuthRequest(
          request.method,
          request.path,
          headers,
          scheme,
          publicUrl === undefined
            ? undefined
            : publicUrl + targetPath(request.originalUrl ?? request.path),
          request.socket,
          clientCertificateHeader,
        );
        const principal = await config.verify(credentials.token, authRequest);
        if (check !== undefined) {
          try {
            check(principal);
          } catch (error) {
            throw refusedWith(error, principal);
          }
        }
        return principal;
      } catch (error) {
        // The challenge names the scheme the request used: set here, where it is known.
        if (isPlantServiceError(error)) setChallengeContext(error, config.challenges[scheme]);
        throw error;
      }
    },
    refuse(error, request, principal, bodyUnread, internalMessage) {
      const failure: PlantServiceError = isPlantServiceError(error)
        ? error
        : new InternalServerError('internal_error', 'An unexpected error.', { cause: error });
      // A refusal from outside the auth step (body, store) has no scheme of its own: Bearer's.
      if (isDefaultChallenge(failure)) setChallengeContext(failure, config.challenges.Bearer);
      // Refusals are the common answer under attack: no context is built when nobody observes it.
      const report = (): void => {
        const reportsError = failure.status >= 500 && onError !== undefined;
        if (onRejected !== undefined || reportsError) {
          // A refusal after the token was verified (scope, DPoP proof) carries whose token it was.
          const context = hookContext(request, principal ?? refusedPrincipal(error));
          runHook(onRejected, failure, context, onError);
          if (reportsError) runHook(onError, failure, context, undefined);
        }
        warnHost?.(failure);
      };
      if (config.logger === undefined) report();
      else config.logger.during(request.logger, report);
      return errorAnswer(failure, principal, bodyUnread, internalMessage);
    },
  };
}

// A bearer error whose challenge no service has set yet (a verifier's own, thrown outside the step).
function isDefaultChallenge(error: PlantServiceError): boolean {
  const context = (error as { readonly challengeContext?: { readonly scheme?: AuthScheme } })
    .challengeContext;
  return context !== undefined && context.scheme === undefined;
}

/**
 * What the hooks are told of a request: the path the client asked the host for, mount point
 * included and query left out, whichever adapter mounted the route (`request.path` is relative to a
 * mount under Express).
 *
 * @param request - the request
 * @param principal - who made it, once verified
 * @returns the hooks' context
 * @example
 * ```ts
 * hookContext({ method: 'GET', path: '/x', originalUrl: '/api/x?a=1', headers: {} }, principal).path; // '/api/x'
 * ```
 */
export function hookContext(
  request: AuthStepRequest,
  principal: Principal | undefined,
): HookContext {
  const { originalUrl } = request;
  const path = originalUrl === undefined ? request.path : targetPath(originalUrl);
  return { method: request.method, path, principal };
}

/**
 * Where a service keeps its auth step: a registered symbol, so that a guard of a second installed
 * copy of the core finds the step of a service this copy made.
 */
export const REQUEST_AUTH = Symbol.for('@plantstore/core/request-auth');

/**
 * The auth step of a service made by `createPlantService`.
 *
 * @param service - the service a guard is made from
 * @param factory - the name the error message gives the caller, such as `guard`
 * @returns its auth step
 * @throws TypeError for anything but a service made by `createPlantService`
 * @example
 * ```ts
 * const auth = requestAuthOf(service, 'guard');
 * ```
 */
export function requestAuthOf(service: unknown, factory: string): RequestAuth {
  const auth =
    typeof service === 'object' && service !== null
      ? (service as { readonly [REQUEST_AUTH]?: RequestAuth })[REQUEST_AUTH]
      : undefined;
  if (auth === undefined) {
    throw new TypeError(
      `${factory}: expected a service made by createPlantService (the route's own, so that both share one key set and one replay store); received ${describeValue(service)}`,
    );
  }
  return auth;
}

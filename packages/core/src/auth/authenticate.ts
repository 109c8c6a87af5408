import type { AuthRequest, Authenticator } from './authenticator';
import { InternalServerError } from '../errors/server-errors';
import { InvalidTokenError } from '../errors/bearer-errors';
import { isPlantServiceError } from '../errors/plant-service-error';
import type { Principal } from './principal';

/** Verifies one token for the service: resolves the principal or rejects with a Plantstore error. */
export type VerifyCredentials = (token: string, request: AuthRequest) => Promise<Principal>;

// Marks the authenticators of this package, whose `verify` keeps the contract by construction.
const exact = Symbol.for('@plantstore/core/exact-authenticator');

/**
 * Marks an authenticator of this package as one whose `verify` only resolves a whole principal and
 * only rejects with Plantstore errors, so the service calls it as it is.
 *
 * @param authenticator - an authenticator made in this package
 * @returns the same authenticator
 * @example
 * ```ts
 * return exactAuthenticator({ verify, accepts, ready, close }); // in jwtBearer
 * ```
 */
export function exactAuthenticator<T extends Authenticator>(authenticator: T): T {
  Object.defineProperty(authenticator, exact, { value: true });
  return authenticator;
}

/**
 * Turns the service's authenticator into the verification the route calls, once at start-up: an
 * authenticator of this package as it is (wrapping it would cost a promise per request); any other
 * one checked on every call, so its `undefined` refuses the token (401) and its unexpected throw is
 * a 500, not a 401.
 *
 * @param auth - the configured authenticator
 * @returns the verification of one token
 * @example
 * ```ts
 * const verify = verifierOf(options.auth);
 * const principal = await verify(token, request); // 401, 403, 503 or 500 as a Plantstore error
 * ```
 */
export function verifierOf(auth: Authenticator): VerifyCredentials {
  if ((auth as { [exact]?: boolean })[exact] === true) {
    return auth.verify.bind(auth) as VerifyCredentials;
  }
  return (token, request) => verifyWith(auth, token, request);
}

async function verifyWith(
  auth: Authenticator,
  token: string,
  request: AuthRequest,
): Promise<Principal> {
  let principal: Principal | undefined;
  try {
    principal = await auth.verify(token, request);
  } catch (error) {
    if (isPlantServiceError(error)) throw error;
    throw new InternalServerError('auth_failed', 'The token verifier threw.', { cause: error });
  }
  if (principal === undefined || principal === null) {
    throw new InvalidTokenError('token_rejected', 'The token was not accepted');
  }
  return {
    subject: principal.subject,
    scopes: Array.isArray(principal.scopes) ? principal.scopes : [],
    claims: principal.claims ?? {},
  };
}

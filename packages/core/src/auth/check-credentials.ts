import type { AuthRequest, Authenticator, VerifyToken } from './authenticator';
import { InternalServerError } from '../errors/server-errors';
import { InvalidTokenError } from '../errors/bearer-errors';
import { isPlantServiceError } from '../errors/plant-service-error';
import type { Principal } from './principal';

/**
 * Verifies a token with the service's auth: an {@link Authenticator} answers for itself; a custom
 * verifier's `undefined` refuses the token, and its unexpected throw is a 500, not a 401.
 *
 * @param auth - the configured auth
 * @param token - the bearer token, already well-formed
 * @param request - the request, for verifiers that look at it
 * @returns the principal
 * @throws a Plantstore error: 401, 403, 503 or 500
 */
export function authenticate(
  auth: Authenticator | VerifyToken,
  token: string,
  request: AuthRequest,
): Promise<Principal> {
  // An Authenticator's own promise, as it is: wrapping it would cost a promise per request.
  return typeof auth === 'function'
    ? verifyWith(auth, token, request)
    : auth.verify(token, request);
}

async function verifyWith(
  verify: VerifyToken,
  token: string,
  request: AuthRequest,
): Promise<Principal> {
  let principal: Principal | undefined;
  try {
    principal = await verify(token, request);
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

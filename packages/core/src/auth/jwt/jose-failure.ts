import { InvalidTokenError } from '../../errors/bearer-errors';
import type { InvalidTokenCode } from '../../errors/error-codes';
import { isPlantServiceError, type PlantServiceError } from '../../errors/plant-service-error';
import { InternalServerError } from '../../errors/server-errors';

/**
 * Maps a jose failure to a 401 with a stable code and a fixed description. jose's error stays as
 * `cause`, for `onError` and logs, but without the token's claims: jose's claim errors carry the whole
 * payload (e-mail addresses and the like), and a logged error must not.
 *
 * @param error - what jose (or the key set) threw
 * @returns the error to answer with: 401 `invalid_token`, the key set's own 503, or a 500
 * @example
 * ```ts
 * try { await jwtVerify(token, key, options); } catch (error) { throw toAuthError(error); }
 * ```
 */
export function toAuthError(error: unknown): PlantServiceError {
  // The key set's own answers (503 jwks_unavailable, 401 key_not_found) pass through unchanged.
  if (isPlantServiceError(error)) return error;
  withoutPayload(error);
  const { code, claim, reason } = (error ?? {}) as Record<string, unknown>;
  const invalid = (stable: InvalidTokenCode, description: string) =>
    new InvalidTokenError(stable, description, { cause: error });
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      // jose reports both a past `exp` and an `iat` older than maxTokenAge as "expired".
      return claim === 'iat'
        ? invalid('token_too_old', 'The token was issued too long ago')
        : invalid('token_expired', 'The token has expired');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (reason === 'missing') return invalid('claim_missing', 'A required claim is missing');
      if (reason === 'invalid') return invalid('claim_invalid', 'A claim has an invalid type');
      if (claim === 'iss') return invalid('issuer_mismatch', 'The token has another issuer');
      if (claim === 'aud') return invalid('audience_mismatch', 'The token is for another audience');
      if (claim === 'nbf') return invalid('token_not_yet_valid', 'The token is not valid yet');
      return invalid('claim_invalid', 'A claim has an unexpected value');
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return invalid('signature_invalid', 'The signature does not verify');
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return invalid('algorithm_not_allowed', 'The token is signed with an algorithm not allowed');
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_INVALID':
      return invalid('key_not_found', 'No key of the key set matches the token');
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return invalid('token_malformed', 'The token is not a well-formed signed JWT');
    default:
      // Not the token's fault (a key jose cannot use, a bug): a 500 the onError hook will see.
      return new InternalServerError('auth_failed', 'The bearer token could not be verified.', {
        cause: error,
      });
  }
}

/**
 * jose's claim errors carry the payload twice: as `payload` and in their own `cause`. They are made
 * for this one verification, so removing it in place is safe.
 */
function withoutPayload(error: unknown): void {
  if (typeof error !== 'object' || error === null) return;
  Reflect.deleteProperty(error, 'payload');
  const { cause } = error as { cause?: unknown };
  if (typeof cause === 'object' && cause !== null && 'payload' in cause) {
    const kept = { ...(cause as Record<string, unknown>) };
    delete kept['payload'];
    Object.defineProperty(error, 'cause', { value: kept, configurable: true, writable: true });
  }
}

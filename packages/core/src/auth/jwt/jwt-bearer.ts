import { errors, jwtVerify } from 'jose';
import type { CryptoKey, JWTPayload, JWTVerifyGetKey, JWTVerifyOptions } from 'jose';
import type { Authenticator } from '../authenticator';
import { InsufficientScopeError, InvalidTokenError } from '../../errors/bearer-errors';
import { InternalServerError } from '../../errors/server-errors';
import { isPlantStoreError, type PlantStoreError } from '../../errors/plant-store-error';
import { type InvalidTokenCode } from '../../errors/error-codes';
import { assertCompactJws } from './compact-jws';
import { resolveJwtBearerOptions, type JwtBearerOptions } from './jwt-bearer-options';
import type { Principal } from '../principal';
import { createRemoteKeySet, type RemoteKeySet } from '../keys/remote-key-set';
import { staticKeyResolver } from '../keys/static-key';
import type { VerificationKey } from '../keys/verification-key';
import { createVerifiedTokenCache, type TokenWindow } from './verified-token-cache';

export type { JwtBearerJwksOptions, JwtBearerOptions } from './jwt-bearer-options';
export type { JwsAlgorithm } from '../keys/verification-key';

type Key = VerificationKey['key'] | JWTVerifyGetKey;

/** Maps a jose failure to a 401 with a stable code and a fixed description; jose's error stays as `cause`. */
function toAuthError(error: unknown): PlantStoreError {
  // The key set's own answers (503 jwks_unavailable, 401 key_not_found) pass through unchanged.
  if (isPlantStoreError(error)) return error;
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

/** jwtVerify; when several keys of a JWKS match a token without `kid`, each in turn. */
async function verifyJwt(token: string, key: Key, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, key, options)).payload;
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    for await (const candidate of error as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, candidate, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed(undefined, { cause: error });
  }
}

/** The window in which jose would accept this token again, in epoch milliseconds. */
function tokenWindow(payload: JWTPayload, options: JWTVerifyOptions): TokenWindow {
  const tolerance = typeof options.clockTolerance === 'number' ? options.clockTolerance : 0;
  const { exp, nbf, iat } = payload;
  const maxAge = typeof options.maxTokenAge === 'number' ? options.maxTokenAge : undefined;
  const ends = [
    exp === undefined ? Infinity : (exp + tolerance) * 1000,
    maxAge === undefined || iat === undefined ? Infinity : (iat + maxAge + tolerance) * 1000,
  ];
  return {
    validFrom: nbf === undefined ? -Infinity : (nbf - tolerance) * 1000,
    validUntil: Math.min(...ends),
  };
}

/** Reads `scope` (space-separated) and `scp` (a list, or space-separated) into one list. */
function readScopes(payload: JWTPayload): string[] {
  const scopes = new Set<string>();
  for (const claim of [payload['scope'], payload['scp']]) {
    if (claim === undefined) continue;
    const parts: unknown = typeof claim === 'string' ? claim.split(' ') : claim;
    if (!Array.isArray(parts) || !parts.every((part) => typeof part === 'string')) {
      throw new InvalidTokenError('claim_invalid', 'The scope claim is not a string or a list');
    }
    for (const part of parts) if (part !== '') scopes.add(part);
  }
  return [...scopes];
}

/**
 * Creates an {@link Authenticator} that verifies JWT bearer tokens with jose, against a shared
 * secret, a public key or a remote JWKS. Options are checked and keys imported here, once, so a
 * misconfiguration fails at start-up and never on a request.
 *
 * @param options - the key (exactly one of `secret`, `publicKey`, `jwksUri`) and the checks, see
 *   {@link JwtBearerOptions}
 * @returns the authenticator; its `verify` resolves `{ subject, scopes, claims }` or rejects with
 *   `InvalidTokenError` (401, a stable `code` such as `token_expired`), `InsufficientScopeError`
 *   (403) or `ServiceUnavailableError` (503 `jwks_unavailable`: no usable JWKS copy); `ready`
 *   fetches the JWKS, if any
 * @throws TypeError naming the option: unknown, missing or conflicting options, `none` or an
 *   algorithm that does not fit the key, a secret under 32 bytes, a bad key or URL, a bad number
 * @example
 * ```ts
 * const auth = jwtBearer({
 *   jwksUri: 'https://id.example.com/.well-known/jwks.json',
 *   issuer: 'https://id.example.com/',
 *   audience: 'https://api.example.com/plants',
 *   requiredScopes: ['plants:write'],
 * });
 * ```
 */
export function jwtBearer(options: JwtBearerOptions): Authenticator {
  const config = resolveJwtBearerOptions(options);
  const { source, verifyOptions, requiredScopes, now } = config;
  let keySet: RemoteKeySet | undefined;
  let key: Key;
  if ('url' in source) {
    keySet = createRemoteKeySet(source.url, source.jwks);
    key = keySet.getKey;
  } else {
    key = staticKeyResolver(source.key);
  }
  const cache = config.cache === false ? undefined : createVerifiedTokenCache(config.cache);
  const clock = now ?? Date.now;

  return {
    async verify(token: string): Promise<Principal> {
      const cached = cache?.get(token, clock(), keySet?.version ?? 0);
      if (cached !== undefined) return cached;
      assertCompactJws(token);
      let payload: JWTPayload;
      try {
        const checks =
          now === undefined ? verifyOptions : { ...verifyOptions, currentDate: new Date(now()) };
        payload = await verifyJwt(token, key, checks);
      } catch (error) {
        throw toAuthError(error);
      }
      if (payload.sub !== undefined && typeof payload.sub !== 'string') {
        throw new InvalidTokenError('claim_invalid', 'The sub claim is not a string');
      }
      const scopes = readScopes(payload);
      if (!requiredScopes.every((scope) => scopes.includes(scope))) {
        throw new InsufficientScopeError(requiredScopes);
      }
      const principal: Principal = { subject: payload.sub, scopes, claims: payload };
      cache?.set(
        token,
        principal,
        tokenWindow(payload, verifyOptions),
        clock(),
        keySet?.version ?? 0,
      );
      return principal;
    },
    ready: async () => keySet?.ready(),
    close: () => Promise.resolve(),
  };
}

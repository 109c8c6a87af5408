import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import type {
  CryptoKey,
  JWTPayload,
  JWTVerifyGetKey,
  JWTVerifyOptions,
  JWTVerifyResult,
} from 'jose';
import type { Authenticator } from '../authenticator';
import { InsufficientScopeError } from '../../errors/bearer-errors';
import { assertCompactJws } from './compact-jws';
import { toAuthError } from './jose-failure';
import { principalOf } from './principal-of';
import { assertTokenType } from './token-type';
import { resolveJwtBearerOptions, type JwtBearerOptions } from './jwt-bearer-options';
import type { Principal } from '../principal';
import { createRemoteKeySet, type RemoteKeySet } from '../keys/remote-key-set';
import { staticKeyResolver } from '../keys/static-key';
import type { VerificationKey } from '../keys/verification-key';
import { createVerifiedTokenCache, type TokenWindow } from './verified-token-cache';

export type { JwtBearerJwksOptions, JwtBearerOptions } from './jwt-bearer-options';
export type { JwsAlgorithm } from '../keys/verification-key';

type Key = VerificationKey['key'] | JWTVerifyGetKey;

// A token without `kid` matches every key of its type; a forged one must not cost a verification per
// key of a large key set. Real key sets hold one or two keys of a type (the current one and the next).
const MAX_KEYS_TRIED = 3;

/** jwtVerify; when several keys of a JWKS match a token without `kid`, the first few in turn. */
async function verifyJwt(
  token: string,
  key: Key,
  options: JWTVerifyOptions,
): Promise<JWTVerifyResult> {
  try {
    return await jwtVerify(token, key, options);
  } catch (error) {
    if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
    let tried = 0;
    for await (const candidate of error as AsyncIterable<CryptoKey>) {
      if (++tried > MAX_KEYS_TRIED) break;
      try {
        return await jwtVerify(token, candidate, options);
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
  const { source, verifyOptions, requiredScopes, now, acceptedTypes, scopeClaims } = config;
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
      // Read once, before verifying: an entry is filed under the key set it was verified with, so a
      // refresh that lands meanwhile (and may have withdrawn the key) is never covered by it.
      const version = keySet?.version ?? 0;
      const cached = cache?.get(token, clock(), version);
      if (cached !== undefined) return cached;
      assertCompactJws(token);
      let verified: JWTVerifyResult;
      try {
        const checks =
          now === undefined ? verifyOptions : { ...verifyOptions, currentDate: new Date(now()) };
        verified = await verifyJwt(token, key, checks);
      } catch (error) {
        // jose checks claims only once the signature verified, so the header is the signer's: a
        // token of another type (an ID token under the RFC 9068 profile) is refused as what it is,
        // not for the claims its type lacks.
        if ((error as { code?: unknown } | null)?.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
          assertTokenType(decodeProtectedHeader(token).typ, acceptedTypes);
        }
        throw toAuthError(error);
      }
      const { payload, protectedHeader } = verified;
      assertTokenType(protectedHeader.typ, acceptedTypes);
      const principal = principalOf(payload, scopeClaims);
      if (!requiredScopes.every((scope) => principal.scopes.includes(scope))) {
        throw new InsufficientScopeError(requiredScopes);
      }
      if (keySet === undefined || keySet.version === version) {
        cache?.set(token, principal, tokenWindow(payload, verifyOptions), clock(), version);
      }
      return principal;
    },
    ready: async () => keySet?.ready(),
    close: () => Promise.resolve(),
  };
}

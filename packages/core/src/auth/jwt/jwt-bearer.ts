import type { AcceptedCredentials, AuthRequest, Authenticator } from '../authenticator';
import { exactAuthenticator } from '../authenticate';
import { createCnfBinding } from '../cnf-binding';
import { assertScopesGranted } from '../claims/scopes-granted';
import { assertCompactJws } from '../compact-jws';
import { createIssuerVerifier, type VerifiedToken } from './issuer-verifier';
import { resolveJwtBearerOptions, type JwtBearerOptions } from './options/jwt-bearer-options';
import type { Principal } from '../principal';
import { selectByIssuer } from './select-issuer';
import { createVerifiedTokenCache } from '../verified-token-cache';
import { createKeySetPool } from '../keys/key-set-pool';

export type {
  JwtBearerAudienceCheck,
  JwtBearerIssuerFields,
  JwtBearerIssuerOptions,
  JwtBearerJwksOptions,
  JwtBearerOptionFields,
  JwtBearerOptions,
} from './options/jwt-bearer-options';
export type { JwsAlgorithm } from '../keys/verification-key';
export type { DpopNonceOptions, DpopOptions } from '../dpop/options/dpop-options';
export type { MtlsOptions } from '../mtls/mtls-options';
export type { CertificateBinding, DpopBinding } from '../proof-of-possession';

// What `verify(token)` assumes when called without a request: a plain Bearer token.
const BEARER_REQUEST: AuthRequest = Object.freeze({
  method: 'POST',
  path: '/plants',
  headers: () => undefined,
});

/** What {@link jwtBearer} returns: an {@link Authenticator} whose every member is there. */
export interface JwtBearer extends Authenticator {
  /** Resolves the principal, or rejects with a Plantstore error; never resolves `undefined`. */
  verify(token: string, request?: AuthRequest): Promise<Principal>;
  /** Fetches every JWKS, and readies the DPoP replay store. */
  ready(): Promise<void>;
  /** Releases the DPoP replay store. */
  close(): Promise<void>;
  readonly accepts: AcceptedCredentials;
}

/**
 * Creates an {@link Authenticator} that verifies JWT bearer tokens with jose, against a shared
 * secret, a public key or a remote JWKS, or against several issuers each with its own (`issuers`: a
 * token's `iss` selects its issuer's keys). Options are checked and keys imported here, once, so a
 * misconfiguration fails at start-up and never on a request.
 *
 * @param options - the key (exactly one of `secret`, `publicKey`, `jwksUri`, or `issuers`) and the
 *   checks, see {@link JwtBearerOptions}
 * @returns the authenticator; its `verify` resolves `{ subject, scopes, claims }` or rejects with
 *   `InvalidTokenError` (401, a stable `code` such as `token_expired`), `InsufficientScopeError`
 *   (403) or `ServiceUnavailableError` (503 `jwks_unavailable`: no usable copy of the token's
 *   issuer's JWKS); `ready` fetches every JWKS
 * @throws TypeError naming the option: unknown, missing or conflicting options, `none` or an
 *   algorithm that does not fit the key, a secret under 32 bytes, a bad key or URL, a bad number, a
 *   repeated issuer
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
export function jwtBearer(options: JwtBearerOptions): JwtBearer {
  const config = resolveJwtBearerOptions(options);
  const { requiredScopes, now } = config;
  const [firstConfig, ...otherConfigs] = config.verifiers;
  // One key set per JWKS URL: a forged token then costs a provider one fetch a second, not one per
  // issuer that names its URL.
  const keySetOf = createKeySetPool();
  const first = createIssuerVerifier(firstConfig, now, keySetOf);
  const others = otherConfigs.map((entry) => createIssuerVerifier(entry, now, keySetOf));
  const verifiers = [first, ...others];
  const verifyToken = config.selectByIssuer
    ? selectByIssuer(verifiers)
    : (token: string) => first.verify(token);
  // One version for the one cache of every issuer: the sum only grows, and grows whenever any key
  // set changes (a shared one counts once per issuer on it), so an entry is never used past a change
  // of its own issuer's keys, whichever issuer's token brought it. Another issuer's change empties it
  // too: that costs one verification per token, on a rare event.
  const keyVersion =
    others.length === 0
      ? () => first.version
      : () => verifiers.reduce((sum, verifier) => sum + verifier.version, 0);
  const cache = config.cache === false ? undefined : createVerifiedTokenCache(config.cache);
  const clock = now ?? Date.now;
  const { dpop, mtls } = config;
  const binding = createCnfBinding(
    dpop?.createProofCheck(config.clockTolerance),
    mtls,
    dpop?.required === true,
  );
  const accepts: AcceptedCredentials = Object.freeze({
    bearer: dpop?.required !== true,
    dpop: dpop && Object.freeze({ algorithms: dpop.algorithms, required: dpop.required }),
    mtls: mtls && Object.freeze({ required: mtls.required }),
    issuers: config.issuers,
    authorizationServers: config.authorizationServers,
    audiences: config.audiences,
    scopes: requiredScopes,
  });

  // A verified token's principal, once its binding and scopes are checked; kept for the next request
  // with it (whose binding is checked again: a proof or a certificate is the request's own).
  // `version` was read before verifying: an entry is filed under the key set it was verified with,
  // so a refresh that lands meanwhile (and may have withdrawn the key) is never covered by it.
  function accept({ principal, window }: VerifiedToken, token: string, version: number): Principal {
    assertScopesGranted(principal, requiredScopes);
    if (keyVersion() === version) cache?.set(token, principal, window, clock(), version);
    return principal;
  }

  // A bound token needs its proof checked before its principal is answered.
  function checkBinding(
    principal: Principal,
    request: AuthRequest,
    token: string,
  ): Principal | Promise<Principal> {
    const proof = binding.afterVerifying(principal, request, token, clock());
    return proof === undefined ? principal : proof.then(() => principal);
  }

  return exactAuthenticator({
    // Plain functions and one `then`, not async ones: every async layer would cost a promise and a
    // turn of the microtask queue on every request, and a cached token needs none.
    verify(token: string, request: AuthRequest = BEARER_REQUEST): Promise<Principal> {
      try {
        binding.beforeVerifying(request);
        const version = keyVersion();
        const cached = cache?.get(token, clock(), version);
        if (cached !== undefined) return Promise.resolve(checkBinding(cached, request, token));
        assertCompactJws(token);
        // The binding before the scopes: a bound token without its key or certificate is not a valid
        // token (401), and a 403 would tell whoever holds it what it grants.
        return verifyToken(token).then((verified) => {
          const proof = binding.afterVerifying(verified.principal, request, token, clock());
          if (proof === undefined) return accept(verified, token, version);
          return proof.then(() => accept(verified, token, version));
        });
      } catch (error) {
        // Only this module's checks throw here, and they throw Errors.
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    accepts,
    ready: async () => {
      await Promise.all([
        ...verifiers.map((verifier) => verifier.ready()),
        dpop?.replayStore.ready?.(),
      ]);
    },
    close: async () => dpop?.replayStore.close?.(),
  });
}

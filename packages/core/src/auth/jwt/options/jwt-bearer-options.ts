import type { VerifiedTokenCacheOptions } from '../../verified-token-cache';
import type { KeyObject, webcrypto } from 'node:crypto';
import type { AccessTokenProfile } from './access-token-options';
import { resolveIssuerOptions, type SharedIssuerSettings } from './issuer-options';
import type { IssuerVerifierConfig } from '../issuer-verifier';
import { resolveSeveralIssuers } from './several-issuers-options';
import type { JwtBearerJwksOptions } from '../../keys/options/remote-key-set-options';
import type { JwsAlgorithm } from '../../keys/verification-key';
import { isIssuerUrl } from '../../issuer-url';
import {
  resolveDpopOptions,
  type DpopConfig,
  type DpopOptions,
} from '../../dpop/options/dpop-options';
import {
  checkKnownOptions,
  describeValue,
  nonNegativeNumber,
  optionalFunction,
  optionError,
  stringList,
  wholeNumber,
} from '../../../options/check-options';

export type { JwtBearerJwksOptions } from '../../keys/options/remote-key-set-options';

/**
 * Options of `jwtBearer`. Exactly one key source is required: `secret`, `publicKey` or `jwksUri`
 * for one issuer, or `issuers` for several.
 */
export interface JwtBearerOptions {
  /** Shared HMAC secret of at least 32 bytes (HS256; HS384 from 48 bytes, HS512 from 64). */
  readonly secret?: string | Uint8Array;
  /** Public key: PEM (SPKI or PKCS#1), a public JWK, a `KeyObject` or a `CryptoKey`. */
  // Node's own key types, not jose's: jose ships only ESM, and its types in our .d.cts would break
  // CommonJS consumers that check library types.
  // webcrypto.JsonWebKey, not the top-level JsonWebKey: @types/node 25 and later dropped that export.
  readonly publicKey?: string | webcrypto.JsonWebKey | KeyObject | webcrypto.CryptoKey;
  /** Where the identity provider serves its JWKS: `https:`, or `http:` on a loopback host only. */
  readonly jwksUri?: string | URL;
  /** Accepted `iss` value(s). */
  readonly issuer?: string | readonly string[];
  /**
   * Several issuers, each with its own key source (`secret`, `publicKey` or `jwksUri`), `audience`,
   * `algorithms` and `jwks` (multi-tenant providers, a migration between providers). A token's `iss`
   * selects the one entry whose keys verify it, so a key of one issuer never verifies a token naming
   * another (RFC 8725 §3.8); a token without `iss`, or naming no entry's, is refused (401
   * `issuer_mismatch`) before any key is fetched. Each JWKS URL has one key set (cache, back-off and
   * 503), shared by the entries that name it, whose `jwks` options must then be the same.
   *
   * 1 to 100 entries, each `issuer` once. The top-level `secret`, `publicKey`, `jwksUri`, `issuer`,
   * `audience`, `algorithms` and `jwks` are refused with it: set them per issuer. The top-level `typ`,
   * `profile`, `scopeClaims`, `requiredClaims` and `maxTokenAge` are defaults an entry may replace;
   * `requiredScopes`, `clockTolerance`, `cache`, `fetch` and `now` are shared.
   *
   * @example
   * ```ts
   * jwtBearer({
   *   issuers: [
   *     { issuer: 'https://tenant-a.eu.auth0.com/', jwksUri: AUTH0_JWKS, audience: 'https://api.example.com' },
   *     { issuer: 'legacy', secret: process.env.LEGACY_SECRET, audience: 'plants' },
   *   ],
   *   requiredScopes: ['plants:write'],
   * });
   * ```
   */
  readonly issuers?: readonly JwtBearerIssuerOptions[];
  /** Accepted `aud` value(s): the token must name at least one. */
  readonly audience?: string | readonly string[];
  /**
   * Accepted `alg` values; each must fit the key. Default from the key: the HS algorithms the secret
   * is long enough for; RS256…RS512 and PS256…PS512 for an RSA key; ES256, ES384 or ES512 for an EC
   * key on P-256, P-384 or P-521; EdDSA and Ed25519 for an Ed25519 key; only its `alg` for a JWK
   * that names one; every asymmetric algorithm for a JWKS, where each JWK is still matched to the
   * token's `alg` by key type and curve.
   */
  readonly algorithms?: readonly JwsAlgorithm[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat`. Default 5. */
  readonly clockTolerance?: number;
  /** Oldest accepted `iat`, in seconds or as a duration such as `'2 hours'`. Requires `iat`. */
  readonly maxTokenAge?: number | string;
  /** Claims every token must carry. */
  readonly requiredClaims?: readonly string[];
  /** Scopes every token must grant (read from `scopeClaims`), else 403. */
  readonly requiredScopes?: readonly string[];
  /**
   * Which claims grant scopes. Default `['scope', 'scp']`. `scope` counts only as one space-delimited
   * string (RFC 9068 §2.2.3); any other claim may also be a list: `['permissions']` for Auth0 RBAC,
   * `['roles']` for Entra ID app roles.
   */
  readonly scopeClaims?: readonly string[];
  /**
   * Accepted token types (the `typ` header), compared without case and without an `application/`
   * prefix: `'at+jwt'` accepts `at+jwt` and `application/at+jwt` (RFC 9068 §4). Default: `at+jwt`,
   * `JWT` or no `typ`, which fits providers that do not type their access tokens yet (Keycloak, Entra
   * ID, Auth0's default dialect); every other type (`dpop+jwt`, `logout+jwt`, …) is refused. Set
   * `'at+jwt'` (or `profile`) where the provider issues RFC 9068 tokens, so an ID token signed by the
   * same keys can never pass for an access token.
   */
  readonly typ?: string | readonly string[];
  /**
   * `'rfc9068'`: the whole JWT access token profile: `typ` `at+jwt`, and `iss`, `exp`, `aud`, `sub`,
   * `client_id`, `iat` and `jti` required. Needs `issuer` and `audience`.
   */
  readonly profile?: AccessTokenProfile;
  /** Tuning of the JWKS cache; only with `jwksUri`. */
  readonly jwks?: JwtBearerJwksOptions;
  /** The fetch used for the JWKS (proxies, tests); only with `jwksUri`. */
  readonly fetch?: typeof fetch;
  /** The clock in epoch milliseconds, for tests: token times and the JWKS cache follow it. */
  readonly now?: () => number;
  /**
   * The cache of verified tokens (see docs/security.md): `{ max, maxAgeMs }`, default
   * `{ max: 1000, maxAgeMs: 300000 }`, or `false` to verify every request's token afresh.
   */
  readonly cache?: VerifiedTokenCacheOptions | false;
  /**
   * DPoP (RFC 9449): accept tokens bound to a client's key, each request with a proof signed by that
   * key. `true` for the defaults, or `{ required, algorithms, maxProofAge, nonce, replayStore }`. The
   * service must be given its `publicUrl`, which each proof's `htu` is checked against.
   */
  readonly dpop?: boolean | DpopOptions;
}

/**
 * One issuer of `jwtBearer({ issuers })`: its exact `iss`, exactly one key source (`secret`,
 * `publicKey` or `jwksUri`), and its own checks. Each option means what it means at the top level of
 * a single-issuer `jwtBearer`, and the same rules apply: `audience` is required with `jwksUri` or
 * `profile`, `algorithms` must fit the key. `typ`, `profile`, `scopeClaims`, `requiredClaims` and
 * `maxTokenAge` replace the top-level defaults; an entry that sets `typ` or `profile` replaces both.
 */
export interface JwtBearerIssuerOptions extends Pick<
  JwtBearerOptions,
  | 'secret'
  | 'publicKey'
  | 'jwksUri'
  | 'audience'
  | 'algorithms'
  | 'jwks'
  | 'typ'
  | 'profile'
  | 'scopeClaims'
  | 'requiredClaims'
  | 'maxTokenAge'
> {
  /**
   * The `iss` of this issuer's tokens, compared exactly (`https://id.example.com/` and
   * `https://id.example.com` are two issuers); it selects this entry. Unique across entries.
   */
  readonly issuer: string;
}

/** Checked `jwtBearer` options: one verifier config per issuer, and what they share. */
export interface JwtBearerConfig {
  /** One per issuer, in the order given; a single one without `issuers`. */
  readonly verifiers: readonly [IssuerVerifierConfig, ...IssuerVerifierConfig[]];
  /** With `issuers`: a token's `iss` selects the verifier that may verify it, and no other may. */
  readonly selectByIssuer: boolean;
  /** Every accepted `iss`, each once, in the order given. Empty when `iss` is not checked. */
  readonly issuers: readonly string[];
  /**
   * The accepted `iss` values that are authorization servers (RFC 9728 `authorization_servers`):
   * issuer URLs whose keys come from a `jwksUri`, each once, in the order given.
   */
  readonly authorizationServers: readonly string[];
  /** Every accepted `aud`, each once, in the order given. Empty when `aud` is not checked. */
  readonly audiences: readonly string[];
  readonly requiredScopes: readonly string[];
  readonly now: (() => number) | undefined;
  readonly cache: VerifiedTokenCacheOptions | false;
  /** DPoP's checked options; `undefined` when DPoP is off. */
  readonly dpop: DpopConfig | undefined;
}

// Unknown names are refused, so a typo such as `audiance` fails at start-up instead of disabling a check.
const KNOWN = new Set([
  ...['secret', 'publicKey', 'jwksUri', 'issuer', 'audience', 'algorithms', 'clockTolerance'],
  ...['maxTokenAge', 'requiredClaims', 'requiredScopes', 'jwks', 'fetch', 'now', 'cache'],
  ...['typ', 'profile', 'scopeClaims', 'issuers', 'dpop'],
]);
const KNOWN_CACHE = new Set(['max', 'maxAgeMs']);
// RFC 6749 §3.3 scope-token; it also keeps `"` and `\` out of the `scope="…"` challenge.
const SCOPE_TOKENS = {
  pattern: /^[\x21\x23-\x5b\x5d-\x7e]+$/,
  items: 'scope tokens (no space, quote, backslash)',
  emptyAllowed: true,
};

function cacheOptions(value: unknown): VerifiedTokenCacheOptions | false {
  if (value === undefined) return {};
  if (value === false) return false;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return optionError(
      'jwtBearer',
      'cache',
      'must be false or { max, maxAgeMs }',
      describeValue(value),
    );
  }
  checkKnownOptions('jwtBearer', value, KNOWN_CACHE, 'cache.');
  const { max, maxAgeMs } = value;
  return {
    max: wholeNumber('jwtBearer', 'cache.max', max, { min: 1, max: 2 ** 24 }, 1000),
    maxAgeMs: nonNegativeNumber('jwtBearer', 'cache.maxAgeMs', maxAgeMs) ?? 300_000,
  };
}

/**
 * The issuers a client could ask for a token: URLs (RFC 8414 §2) whose keys are published. A
 * shared-secret issuer is an in-house signer, not an OAuth server, and naming it would tell an attacker
 * which `iss` to forge HMAC tokens for; a static public key is not discoverable either.
 */
function authorizationServers(verifiers: readonly IssuerVerifierConfig[]): string[] {
  const published = verifiers.filter(({ source }) => 'url' in source);
  return accepted(published.map(({ verifyOptions }) => verifyOptions.issuer)).filter(isIssuerUrl);
}

/** The values of jose's `issuer` or `audience` option over every verifier, each once. */
function accepted(lists: readonly (string | readonly string[] | undefined)[]): string[] {
  return [...new Set(lists.flatMap((list) => (list === undefined ? [] : list)))];
}

/**
 * Checks `jwtBearer` options and imports the keys, once, at start-up.
 *
 * @param options - what the host passed to `jwtBearer`
 * @returns one verifier config per issuer, whether `iss` selects among them, the accepted issuers
 *   and audiences, the required scopes and the cache's limits
 * @throws TypeError naming the option: unknown names, not exactly one key, `none` or an algorithm
 *   that does not fit the key, a short secret, an unusable key or URL, a negative or NaN number, an
 *   option of `issuers` (`issuers[1].audience`) or one that belongs in it
 * @example
 * ```ts
 * const { issuers } = resolveJwtBearerOptions({ secret, issuer: 'https://id.example.com/' });
 * ```
 */
export function resolveJwtBearerOptions(options: JwtBearerOptions): JwtBearerConfig {
  checkKnownOptions('jwtBearer', options, KNOWN);
  const shared: SharedIssuerSettings = {
    fetch: optionalFunction<typeof fetch>('jwtBearer', 'fetch', options.fetch),
    now: optionalFunction<() => number>('jwtBearer', 'now', options.now),
    clockTolerance: nonNegativeNumber('jwtBearer', 'clockTolerance', options.clockTolerance) ?? 5,
  };
  const verifiers =
    options.issuers === undefined
      ? ([resolveIssuerOptions(options, shared, { prefix: '', entry: false })] as const)
      : resolveSeveralIssuers(options, shared);
  if (options.fetch !== undefined && !verifiers.some(({ source }) => 'url' in source)) {
    optionError('jwtBearer', 'fetch', 'applies only with jwksUri', 'a value');
  }
  return {
    verifiers,
    selectByIssuer: options.issuers !== undefined,
    issuers: accepted(verifiers.map(({ verifyOptions }) => verifyOptions.issuer)),
    authorizationServers: authorizationServers(verifiers),
    audiences: accepted(verifiers.map(({ verifyOptions }) => verifyOptions.audience)),
    requiredScopes:
      stringList('jwtBearer', 'requiredScopes', options.requiredScopes, SCOPE_TOKENS) ?? [],
    now: shared.now,
    cache: cacheOptions(options.cache),
    dpop: resolveDpopOptions(options.dpop, shared.clockTolerance),
  };
}

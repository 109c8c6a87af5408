import type { VerifiedTokenCacheOptions } from './verified-token-cache';
import type { JWTVerifyOptions } from 'jose';
import type { KeyObject, webcrypto } from 'node:crypto';
import type { RemoteKeySetConfig } from '../keys/remote-key-set';
import { accessTokenChecks, type AccessTokenProfile } from './access-token-options';
import { tokenAge } from './token-age';
import { remoteKeySetConfig, type JwtBearerJwksOptions } from '../keys/remote-key-set-options';

export type { JwtBearerJwksOptions } from '../keys/remote-key-set-options';
import {
  checkKnownOptions,
  describeValue,
  nonNegativeNumber,
  optionalFunction,
  optionError,
  wholeNumber,
} from '../../options/check-options';
import {
  ASYMMETRIC_ALGORITHMS,
  importPublicKey,
  importSecret,
  type JwsAlgorithm,
  type VerificationKey,
} from '../keys/verification-key';

/** Options of `jwtBearer`. Exactly one of `secret`, `publicKey` and `jwksUri` is required. */
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
}

/** Checked `jwtBearer` options: where keys come from, and what jose checks. */
export interface JwtBearerConfig {
  readonly source:
    | { readonly key: VerificationKey['key'] }
    | { readonly url: URL; readonly jwks: RemoteKeySetConfig };
  readonly verifyOptions: JWTVerifyOptions;
  readonly requiredScopes: readonly string[];
  readonly now: (() => number) | undefined;
  readonly cache: VerifiedTokenCacheOptions | false;
  /** Normalised `typ` values accepted; `undefined` in the list accepts a token without `typ`. */
  readonly acceptedTypes: readonly (string | undefined)[];
  readonly scopeClaims: readonly string[];
}

// Unknown names are refused, so a typo such as `audiance` fails at start-up instead of disabling a check.
const KNOWN = new Set([
  ...['secret', 'publicKey', 'jwksUri', 'issuer', 'audience', 'algorithms', 'clockTolerance'],
  ...['maxTokenAge', 'requiredClaims', 'requiredScopes', 'jwks', 'fetch', 'now', 'cache'],
  ...['typ', 'profile', 'scopeClaims'],
]);
const KNOWN_CACHE = new Set(['max', 'maxAgeMs']);
// RFC 6749 §3.3 scope-token; it also keeps `"` and `\` out of the `scope="…"` challenge.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const NON_EMPTY = /^./s;

function strings(option: string, value: unknown, pattern: RegExp): string[] | undefined {
  if (value === undefined) return undefined;
  const list: unknown[] = Array.isArray(value) ? value : [value];
  // An empty issuer or audience list would refuse every token: surely a mistake.
  const emptyAllowed = option !== 'issuer' && option !== 'audience';
  const valid = list.every((item) => typeof item === 'string' && pattern.test(item));
  // A copy: later changes to the caller's array must not change what is checked.
  if (valid && (list.length > 0 || emptyAllowed)) return [...list] as string[];
  const what =
    pattern === SCOPE_TOKEN ? 'scope tokens (no space, quote, backslash)' : 'non-empty strings';
  return optionError('jwtBearer', option, `must hold ${what}`, describeValue(value));
}

function jwksUrl(value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' || value instanceof URL ? new URL(value) : undefined;
  } catch {
    // Reported below.
  }
  const host = url?.hostname ?? '';
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (url?.protocol === 'https:' || (url?.protocol === 'http:' && loopback)) return url;
  const received = url === undefined ? describeValue(value) : `a ${url.protocol} URL for ${host}`;
  return optionError(
    'jwtBearer',
    'jwksUri',
    'must be an https: URL (http: only on a loopback host)',
    received,
  );
}

function algorithms(value: unknown, fit: readonly JwsAlgorithm[], kind: string): JwsAlgorithm[] {
  if (value === undefined) return [...fit];
  if (!Array.isArray(value) || value.length === 0) {
    return optionError(
      'jwtBearer',
      'algorithms',
      'must be a non-empty array',
      describeValue(value),
    );
  }
  for (const alg of value as unknown[]) {
    const received = typeof alg === 'string' ? `"${alg}"` : describeValue(alg);
    if (typeof alg === 'string' && alg.toLowerCase() === 'none') {
      optionError('jwtBearer', 'algorithms', 'must never allow none (unsigned tokens)', received);
    }
    if (!fit.some((allowed) => allowed === alg)) {
      optionError(
        'jwtBearer',
        'algorithms',
        `must only hold what fits ${kind}: ${fit.join(', ')}`,
        received,
      );
    }
  }
  return value as JwsAlgorithm[];
}

const unique = (list: readonly string[]): string[] => [...new Set(list)];

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
 * Checks `jwtBearer` options and imports the key, once, at start-up.
 *
 * @param options - what the host passed to `jwtBearer`
 * @returns the key source, jose's verify options and the required scopes
 * @throws TypeError naming the option: unknown names, not exactly one key, `none` or an algorithm
 *   that does not fit the key, a short secret, an unusable key or URL, a negative or NaN number
 * @example
 * ```ts
 * const { verifyOptions } = resolveJwtBearerOptions({ secret, issuer: 'https://id.example.com/' });
 * ```
 */
export function resolveJwtBearerOptions(options: JwtBearerOptions): JwtBearerConfig {
  checkKnownOptions('jwtBearer', options, KNOWN);
  const keys = (['secret', 'publicKey', 'jwksUri'] as const).filter(
    (k) => options[k] !== undefined,
  );
  if (keys.length !== 1) {
    const received = keys.length === 0 ? 'none of them' : keys.join(' and ');
    const expected = 'exactly one of the options "secret", "publicKey" and "jwksUri" is required';
    throw new TypeError(`jwtBearer: ${expected}; received ${received}`);
  }
  optionalFunction('jwtBearer', 'fetch', options.fetch);
  optionalFunction('jwtBearer', 'now', options.now);

  let source: JwtBearerConfig['source'];
  let fit: readonly JwsAlgorithm[];
  let kind: string;
  if (options.jwksUri === undefined) {
    for (const name of ['jwks', 'fetch'] as const) {
      if (options[name] !== undefined)
        optionError('jwtBearer', name, 'applies only with jwksUri', 'a value');
    }
    const secret = options.secret !== undefined;
    const imported = secret ? importSecret(options.secret) : importPublicKey(options.publicKey);
    source = { key: imported.key };
    fit = imported.allowed;
    kind = secret ? 'a secret of this length' : 'this public key';
  } else {
    const tolerance = nonNegativeNumber('jwtBearer', 'clockTolerance', options.clockTolerance);
    const jwks = remoteKeySetConfig(options.jwks, options.fetch, options.now, tolerance);
    source = { url: jwksUrl(options.jwksUri), jwks };
    fit = ASYMMETRIC_ALGORITHMS;
    kind = 'a JWKS';
  }

  const issuer = strings('issuer', options.issuer, NON_EMPTY);
  const audience = strings('audience', options.audience, NON_EMPTY);
  const checks = accessTokenChecks(options);
  const requiredClaims = unique([
    ...(strings('requiredClaims', options.requiredClaims, NON_EMPTY) ?? []),
    ...checks.profileClaims,
  ]);
  const maxTokenAge = tokenAge(options.maxTokenAge);
  const allowed = algorithms(options.algorithms, fit, kind);
  // A shared identity provider signs tokens for every API it serves: without these checks a token
  // minted for another API (or another tenant) would be accepted here.
  const needsBoth = options.jwksUri !== undefined || options.profile !== undefined;
  if (needsBoth && (issuer === undefined || audience === undefined)) {
    optionError(
      'jwtBearer',
      issuer === undefined ? 'issuer' : 'audience',
      `is required with ${options.profile === undefined ? 'jwksUri' : 'profile "rfc9068"'} (tokens for other APIs of the same provider would pass)`,
      'nothing',
    );
  }
  return {
    source,
    verifyOptions: {
      algorithms: allowed,
      clockTolerance: nonNegativeNumber('jwtBearer', 'clockTolerance', options.clockTolerance) ?? 5,
      ...(issuer && { issuer }),
      ...(audience && { audience }),
      ...(requiredClaims.length > 0 && { requiredClaims }),
      ...(maxTokenAge !== undefined && { maxTokenAge }),
    },
    requiredScopes: strings('requiredScopes', options.requiredScopes, SCOPE_TOKEN) ?? [],
    now: options.now,
    cache: cacheOptions(options.cache),
    acceptedTypes: checks.acceptedTypes,
    scopeClaims: checks.scopeClaims,
  };
}

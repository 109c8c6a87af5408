import type { KeyObject, webcrypto } from 'node:crypto';
import type { VerifiedTokenCacheOptions } from '../../verified-token-cache';
import type { AccessTokenProfile } from './access-token-options';
import type { JwtBearerJwksOptions } from '../../keys/options/remote-key-set-options';
import type { JwsAlgorithm } from '../../keys/verification-key';
import type { CertificateBinding, DpopBinding } from '../../proof-of-possession';
import type { ID_TOKENS_ACCEPTED, PRESET_REQUIRED_CLAIMS } from './preset-keys';

/**
 * Every option of `jwtBearer`, each documented once. Which ones a call must and may give together is
 * {@link JwtBearerOptions}: a union of the forms built from these.
 */
export interface JwtBearerOptionFields {
  /** Shared HMAC secret of at least 32 bytes (HS256; HS384 from 48 bytes, HS512 from 64). */
  readonly secret?: string | Uint8Array;
  /** Public key: PEM (SPKI or PKCS#1), a public JWK, a `KeyObject` or a `CryptoKey`. */
  // Node's own key types, not jose's: jose ships only ESM, and its types in our .d.cts would break
  // CommonJS consumers that check library types.
  // webcrypto.JsonWebKey, not the top-level JsonWebKey: @types/node 25 and later dropped that export.
  readonly publicKey?: string | webcrypto.JsonWebKey | KeyObject | webcrypto.CryptoKey;
  /** Where the identity provider serves its JWKS: `https:`, or `http:` on a loopback host only. */
  readonly jwksUri?: string | URL;
  /**
   * Accepted `iss` value(s). Required with `jwksUri` or `profile`. One issuer holding `{tenantid}`
   * is a tenant template (Entra ID's multi-tenant `https://login.microsoftonline.com/{tenantid}/v2.0`):
   * it needs `tenants`, and each token's `iss` must fit it with the tenant its `tenantClaim` names.
   */
  readonly issuer?: string | readonly string[];
  /**
   * The tenants a tenant-templated `issuer` accepts: their ids, or a predicate that returns `true`
   * for an accepted id. Checked before any key is used, with the token's `iss` and `tenantClaim`.
   */
  readonly tenants?: readonly string[] | ((tenantId: string) => boolean);
  /** The claim that must name the tenant of a templated `issuer`'s `iss`. Default `tid` (Entra ID). */
  readonly tenantClaim?: string;
  /**
   * Several issuers, each with its own key source (`secret`, `publicKey` or `jwksUri`), `audience`,
   * `algorithms` and `jwks` (multi-tenant providers, a migration between providers). A token's `iss`
   * selects the entries whose keys may verify it, so a key of one issuer never verifies a token
   * naming another (RFC 8725 §3.8); a token without `iss`, or naming no entry's, is refused (401
   * `issuer_mismatch`) before any key is fetched. An issuer with several key sources (a legacy
   * secret beside a JWKS) has one entry for each: a token goes to those whose `algorithms` hold its
   * `alg`, in order, while its signature does not verify. Each JWKS URL has one key set (cache,
   * back-off and 503), shared by the entries that name it, whose `jwks` options must then be the same.
   *
   * 1 to 100 entries. The top-level `secret`, `publicKey`, `jwksUri`, `issuer`, `audience`, `clients`,
   * `tenants`, `tenantClaim`, `algorithms` and `jwks` are refused with it: set them per issuer. The
   * top-level `typ`, `profile`, `scopeClaims`, `requiredClaims` and `maxTokenAge` are defaults an entry may replace; `requiredScopes`, `clockTolerance`, `cache`, `fetch` and `now`
   * are shared.
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
  /**
   * Accepted `aud` value(s): the token must name at least one. Required with `jwksUri` or `profile`
   * (see {@link JwtBearerAudienceCheck}).
   */
  readonly audience?: string | readonly string[];
  /**
   * Accepted client ids, for providers whose access tokens name the client instead of an audience:
   * the token's `client_id` (RFC 9068, AWS Cognito), or its `azp` (Clerk) when it has no
   * `client_id`, must be one of them (401 `client_mismatch`; `claim_missing` without either). Counts
   * as the audience check `jwksUri` and `profile` need (see {@link JwtBearerAudienceCheck}).
   */
  readonly clients?: string | readonly string[];
  /**
   * Set only by a provider preset whose ID tokens are its bearer tokens by design (`firebase()`).
   * Everywhere else an OpenID Connect ID token is refused (401 `token_type_mismatch`): payload `typ`
   * `ID` (Keycloak), `token_use` `id` (Cognito), or, without an access-token marker (`typ` `Bearer`,
   * `token_use` `access`), any of `nonce`, `at_hash`, `c_hash` and `s_hash`.
   */
  readonly [ID_TOKENS_ACCEPTED]?: true;
  /**
   * Set only by a provider preset: the claims that tell its access tokens from its other tokens.
   * `requiredClaims` adds to them, never replaces them, so spreading a preset and adding your own
   * `requiredClaims` keeps the preset's guard.
   */
  readonly [PRESET_REQUIRED_CLAIMS]?: readonly string[];
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
  /** Claims every token must carry, beside those a provider preset requires. */
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
   * The cache of verified tokens (see docs/reference/security.md): `{ max, maxAgeMs }`, default
   * `{ max: 1000, maxAgeMs: 300000 }`, or `false` to verify every request's token afresh.
   */
  readonly cache?: VerifiedTokenCacheOptions | false;
  /**
   * DPoP (RFC 9449): accept tokens bound to a client's key, each request with a proof signed by that
   * key: `dpopBinding()` for the defaults, or `dpopBinding({ required, algorithms, maxProofAge,
   * nonce, replayStore })`. The service must be given its `publicUrl`, which each proof's `htu` is
   * checked against. Imported only by those who use it, so a route without DPoP does not carry it;
   * `true` or a plain object throws a TypeError naming `dpopBinding`.
   */
  readonly dpop?: DpopBinding | false;
  /**
   * Certificate-bound tokens (RFC 8705): a token with `cnf["x5t#S256"]` is accepted only from a
   * client whose TLS certificate has that thumbprint: the connection's, or the one a trusted proxy
   * sends in the service's `clientCertificateHeader`. `certificateBinding()`, or
   * `certificateBinding({ required: true })` to refuse tokens not bound to a certificate. Off by
   * default: a certificate-bound token is then refused (401 `token_certificate_bound`), never
   * accepted unchecked. `true` or a plain object throws a TypeError naming `certificateBinding`.
   */
  readonly mtls?: CertificateBinding | false;
}

/**
 * What ties a token to this API beyond its issuer; `jwksUri` and `profile` need one: its `aud`
 * (`audience`), or, where a provider's access tokens carry no `aud` (Cognito's `client_id`, Clerk's
 * `azp`), the client it was issued to (`clients`). Both may be given.
 */
export type JwtBearerAudienceCheck =
  | {
      /** Accepted `aud` value(s): the token must name at least one. */
      readonly audience: string | readonly string[];
      readonly clients?: string | readonly string[];
    }
  | {
      readonly audience?: string | readonly string[];
      /** Accepted `client_id` (or `azp`) value(s). */
      readonly clients: string | readonly string[];
    };

// The runtime rule of `resolveIssuerOptions`, mirrored: a key set fetched from a provider (or the
// RFC 9068 profile) needs `issuer` and an audience check, since a shared provider signs tokens for
// every API it serves and a token minted for another one would pass.
type ForThisApi = { readonly issuer: string | readonly string[] } & JwtBearerAudienceCheck;
type ProfileRule =
  { readonly profile?: undefined } | ({ readonly profile: AccessTokenProfile } & ForThisApi);

// Exactly one key source. `jwks` and `fetch` tune a fetched key set: nothing to tune without one.
type SecretSource = {
  readonly secret: string | Uint8Array;
  readonly publicKey?: undefined;
  readonly jwksUri?: undefined;
  readonly jwks?: undefined;
} & ProfileRule;
type PublicKeySource = {
  readonly publicKey: NonNullable<JwtBearerOptionFields['publicKey']>;
  readonly secret?: undefined;
  readonly jwksUri?: undefined;
  readonly jwks?: undefined;
} & ProfileRule;
type JwksSource = {
  readonly jwksUri: string | URL;
  readonly secret?: undefined;
  readonly publicKey?: undefined;
} & ForThisApi;

type OneIssuer = { readonly issuers?: undefined };
type NoFetch = { readonly fetch?: undefined };
// What only an issuer can say is said in its entry.
type SeveralIssuers = {
  readonly issuers: readonly JwtBearerIssuerOptions[];
  readonly secret?: undefined;
  readonly publicKey?: undefined;
  readonly jwksUri?: undefined;
  readonly issuer?: undefined;
  readonly audience?: undefined;
  readonly clients?: undefined;
  readonly tenants?: undefined;
  readonly tenantClaim?: undefined;
  readonly algorithms?: undefined;
  readonly jwks?: undefined;
};

/**
 * Options of `jwtBearer`, one form per key source: a `secret`, a `publicKey`, a `jwksUri` (which
 * needs `issuer` and `audience`), or `issuers` for several. `profile` needs `issuer` and `audience`
 * too. A call that breaks these rules does not compile, and throws the same rule as a `TypeError`
 * when the types were bypassed. The options themselves are documented on {@link JwtBearerOptionFields}.
 */
export type JwtBearerOptions =
  | (JwtBearerOptionFields & OneIssuer & NoFetch & SecretSource)
  | (JwtBearerOptionFields & OneIssuer & NoFetch & PublicKeySource)
  | (JwtBearerOptionFields & OneIssuer & JwksSource)
  | (JwtBearerOptionFields & SeveralIssuers);

/**
 * One issuer of `jwtBearer({ issuers })`: its exact `iss` (or a tenant template), exactly one key
 * source (`secret`, `publicKey` or `jwksUri`), and its own checks. Each option means what it means at the top level of
 * a single-issuer `jwtBearer`, and the same rules apply: `audience` is required with `jwksUri` or
 * `profile` (in the types too), `algorithms` must fit the key. `typ`, `profile`, `scopeClaims`, `requiredClaims` and
 * `maxTokenAge` replace the top-level defaults; an entry that sets `typ` or `profile` replaces both.
 */
export type JwtBearerIssuerOptions = JwtBearerIssuerFields &
  (SecretSource | PublicKeySource | JwksSource);

/** The options of one entry of `issuers`, each as documented on {@link JwtBearerOptionFields}. */
export interface JwtBearerIssuerFields extends Pick<
  JwtBearerOptionFields,
  | 'secret'
  | 'publicKey'
  | 'jwksUri'
  | 'audience'
  | 'clients'
  | 'tenants'
  | 'tenantClaim'
  | 'algorithms'
  | 'jwks'
  | 'typ'
  | 'profile'
  | 'scopeClaims'
  | 'requiredClaims'
  | 'maxTokenAge'
  | typeof ID_TOKENS_ACCEPTED
  | typeof PRESET_REQUIRED_CLAIMS
> {
  /**
   * The `iss` of this issuer's tokens, compared exactly (`https://id.example.com/` and
   * `https://id.example.com` are two issuers); it selects this entry. An issuer with several key
   * sources has one entry each. One holding `{tenantid}` is a tenant template (needs `tenants`).
   */
  readonly issuer: string;
}

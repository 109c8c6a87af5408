import type { KeyObject, webcrypto } from 'node:crypto';
import type { JwtBearer } from '../../jwt/jwt-bearer';

/** How the resource server authenticates at the introspection endpoint (RFC 7662 §2.1). */
export type IntrospectionClientAuthentication =
  'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';

/** Limits of the cache of active introspection answers. */
export interface TokenIntrospectionCacheOptions {
  /** Most tokens held; the oldest entry goes first. Default 1000. */
  readonly max?: number;
  /** Longest an answer is trusted, whatever the token's `exp`. Default 60000 (1 min). */
  readonly maxAgeMs?: number;
}

/**
 * Options of `tokenIntrospection`. Each check of the answer is the one `jwtBearer` makes on a JWT's
 * claims; at least one of `audience` and `clients` is required, so that a token the provider issued
 * for another API or another client is never accepted.
 */
export interface TokenIntrospectionOptions {
  /** The authorization server: an answer's `iss`, when present, must equal it. */
  readonly issuer: string;
  /**
   * The introspection endpoint: `https:`, or `http:` on a loopback host only. Without it, read once
   * (on `ready()` or the first request) from the issuer's RFC 8414 metadata
   * (`/.well-known/oauth-authorization-server`, then `/.well-known/openid-configuration`).
   */
  readonly endpoint?: string | URL;
  /** The resource server's client id at the authorization server. */
  readonly clientId: string;
  /** The client secret, for `client_secret_basic` (the default with a secret) or `client_secret_post`. */
  readonly clientSecret?: string;
  /**
   * The private key of `private_key_jwt` (RFC 7523 client assertion): PEM (PKCS#8, PKCS#1 or SEC1), a
   * private JWK or a `KeyObject`; RSA (RS256), EC P-256, P-384, P-521 (ES256…ES512) or Ed25519 (EdDSA).
   * A JWK's `kid` and `alg` are used when present.
   */
  // Node's own key types, not jose's: jose ships only ESM, and its types in our .d.cts would break
  // CommonJS consumers.
  readonly privateKey?: string | webcrypto.JsonWebKey | KeyObject;
  /** Default: `client_secret_basic` with `clientSecret`, `private_key_jwt` with `privateKey`. */
  readonly clientAuthentication?: IntrospectionClientAuthentication;
  /**
   * The token's `aud` (a string or a list) must name one of these: the answer's, and a JWT's that
   * `jwt` verified.
   */
  readonly audience?: string | readonly string[];
  /**
   * The token's `client_id` (or `azp` without it) must be one of these (401 `client_mismatch`;
   * `claim_missing` without either): the answer's, and a JWT's that `jwt` verified.
   */
  readonly clients?: string | readonly string[];
  /**
   * Scopes every token must grant (403 `insufficient_scope` otherwise): the answer's
   * space-delimited `scope`, and a JWT's scopes as its `jwt` reads them.
   */
  readonly requiredScopes?: readonly string[];
  /**
   * A `jwtBearer` for the provider's JWT access tokens: a token shaped like a compact JWS (three
   * base64url parts) goes to it, never to the introspection endpoint. Once `jwt` accepts it, the
   * token must still pass `audience`, `clients` and `requiredScopes` above, so both kinds of token
   * meet one authorization.
   */
  readonly jwt?: JwtBearer;
  /**
   * Active answers are kept until the token's `exp`, at most `maxAgeMs`, at most `max` tokens; an
   * inactive or refused answer is never kept. `false`: every request asks the endpoint.
   */
  readonly cache?: TokenIntrospectionCacheOptions | false;
  /**
   * Most introspection calls in flight at once (a token already being asked about waits for that
   * call and does not count). Past it a new token is answered 503 `introspection_unavailable` with
   * `Retry-After: 1`, never 401, so a flood of junk tokens cannot spend the authorization server's
   * rate limit; cached tokens are unaffected. Default 16.
   */
  readonly maxConcurrentCalls?: number;
  /** Abort an introspection (or metadata) call after this long. Default 5000. */
  readonly timeoutMs?: number;
  /** The fetch to call the endpoint with. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
  /** The clock, in epoch milliseconds. Default `Date.now`. */
  readonly now?: () => number;
}

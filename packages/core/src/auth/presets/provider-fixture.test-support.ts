// A provider's documented formats, as data (fixtures/*.json, each with its sources): its key sets (JWKS members as the provider publishes
// them), an access token (JOSE header and claims) and the tokens that must be refused. The key
// material itself is made per test run; see provider-server.test-support.ts.

import type { JwtBearerOptions } from '../jwt/jwt-bearer';

/**
 * A JOSE header and claims. Times (`iat`, `nbf`, `exp`, `auth_time`, `rat`) are seconds from now; a
 * member set to `null` is left out (so a variant can remove one).
 */
export interface TokenFixture {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * A key set as the provider publishes it. Each key's members are kept as written, except the key
 * material: `n`/`e` (RSA) or `x`/`y` (EC) come from a key made for the test under the same `kid`,
 * and the placeholders `"CERT"` (in `x5c`), `"X5T"` and `"X5T#S256"` become a real self-signed
 * certificate of that key and its SHA-1 and SHA-256 thumbprints.
 */
export interface KeySetFixture {
  /** The provider's real JWKS URL, which the test's `fetch` routes to a local server. */
  readonly url: string;
  readonly keys: readonly Readonly<Record<string, unknown>>[];
}

/** Another token of the provider, told by what it changes in the access token. */
export interface VariantFixture {
  /** What the token is: `of another API`, `expired`, `its ID token`, … */
  readonly case: string;
  /** Header members that replace the access token's… */
  readonly header?: Readonly<Record<string, unknown>>;
  /** …claims that replace the access token's (`null` removes one)… */
  readonly claims?: Readonly<Record<string, unknown>>;
  /** …or a whole token of its own (an ID token). */
  readonly token?: TokenFixture;
}

/** A token that must be refused, and the exact code of the 401. */
export interface RefusalFixture extends VariantFixture {
  readonly code: string;
}

/** One provider's documented formats, its preset, and what must pass or be refused. */
export interface ProviderFixture {
  readonly name: string;
  /** What the fixture reproduces. */
  readonly about: string;
  /** Where each format is documented: URLs, or a file of the provider's own source. */
  readonly sources: readonly string[];
  /** The options its preset returned, spread into `jwtBearer` by the test. */
  readonly preset: JwtBearerOptions;
  readonly keySets: readonly KeySetFixture[];
  /** The legacy HMAC secret, for a provider that also signs HS256 (Supabase). */
  readonly secret?: string;
  readonly accessToken: TokenFixture;
  /** Other tokens that must pass: the other dialect, version or tenant. */
  readonly accepted?: readonly VariantFixture[];
  readonly refusals: readonly RefusalFixture[];
  /** The scope the access token grants, required by the test when given. */
  readonly scope?: string;
}

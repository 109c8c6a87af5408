import { hostName, nameList, presetValues, type PresetOf } from './preset-values';

/** Options of {@link auth0}: what the Auth0 dashboard shows. */
export type Auth0PresetOptions = Readonly<{ domain: string; audience: string | readonly string[] }>;

/** The `jwtBearer` options of an Auth0 API; spread them and add `requiredScopes`. */
export type Auth0Preset = PresetOf<'jwksUri' | 'issuer' | 'audience' | 'scopeClaims'>;

/**
 * Auth0: tokens of the tenant `https://{domain}/` (with its trailing slash) for one API, keys from
 * `https://{domain}/.well-known/jwks.json`. Scopes come from `scope` and, with RBAC's "Add
 * Permissions in the Access Token", from `permissions`. Both token dialects (Auth0's default `JWT`
 * and RFC 9068's `at+jwt`) pass; ID tokens name the application, not the API, in `aud`.
 *
 * @param options - `domain`: the tenant's domain or custom domain (`dev-abc.us.auth0.com`), without
 *   `https://`; `audience`: the API's Identifier (Applications > APIs), its tokens' `aud`
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * const domain = 'dev-abc.us.auth0.com';
 * jwtBearer({ ...auth0({ domain, audience: 'https://plants.example.com' }), requiredScopes: ['plants:write'] });
 * ```
 */
export function auth0(options: Auth0PresetOptions): Auth0Preset {
  const checks = { domain: hostName, audience: nameList };
  const { domain, audience } = presetValues('auth0', options, checks);
  const issuer = `https://${domain}/`;
  return { jwksUri: `${issuer}.well-known/jwks.json`, issuer, audience, scopeClaims: SCOPES };
}

// RBAC's permissions arrive as a list beside the granted `scope` string.
const SCOPES = ['scope', 'permissions'];

import { named, nameList, presetValues, trimmedUrl, type PresetOf } from './preset-values';

/** Options of {@link keycloak}: the server, the realm and the API's audience. */
export type KeycloakPresetOptions = Readonly<{
  url: string;
  realm: string;
  audience: string | readonly string[];
}>;

/** The `jwtBearer` options of an API taking a Keycloak realm's access tokens. */
export type KeycloakPreset = PresetOf<'jwksUri' | 'issuer' | 'audience'>;

/**
 * Keycloak: `iss` `{url}/realms/{realm}`, keys from `{issuer}/protocol/openid-connect/certs` (whose
 * `use: "enc"` keys are never used to verify). Access tokens carry the payload `typ` `"Bearer"`,
 * ID tokens `"ID"`, which `jwtBearer` refuses by default; scopes come from `scope`. Keycloak puts
 * only `account` in `aud` until the calling client's dedicated scope gets an Audience mapper
 * (Included Client Audience: this API's client) or the Audience Resolve mapper.
 *
 * @param options - `url`: the server (`https://sso.example.com`; before Keycloak 17 with its
 *   `/auth`); `realm`: the realm's name; `audience`: what the Audience mapper adds
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer({ ...keycloak({ url: 'https://sso.example.com', realm: 'plants', audience: 'plants-api' }), requiredScopes: ['plants:write'] });
 * ```
 */
export function keycloak(options: KeycloakPresetOptions): KeycloakPreset {
  const checks = { url: trimmedUrl, realm: named(/^[^/\s]+$/u), audience: nameList };
  const { url, realm, audience } = presetValues('keycloak', options, checks);
  const issuer = `${url}/realms/${encodeURIComponent(realm)}`;
  return { jwksUri: `${issuer}/protocol/openid-connect/certs`, issuer, audience };
}

import { baseUrl, nameList, optional, presetValues, type PresetOf } from './preset-values';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

/** Options of {@link authentik}: what the admin interface shows for an OAuth2/OpenID provider. */
export type AuthentikPresetOptions = Readonly<{
  issuer: string;
  audience: string | readonly string[];
  jwksUri?: string;
}>;

/** The `jwtBearer` options of an API taking an authentik provider's access tokens. */
export type AuthentikPreset = PresetOf<
  'jwksUri' | 'issuer' | 'audience' | typeof PRESET_REQUIRED_CLAIMS
>;

/**
 * authentik: `iss` the provider's issuer, keys from `{issuer}jwks/`, `aud` its client ID. authentik
 * makes an access token from the ID token's claims and adds `azp` and `uid`; both are required, so
 * an ID token, which has the same `aud`, is refused.
 *
 * @param options - `issuer`: the provider's OpenID Configuration Issuer exactly as shown, with its
 *   trailing slash (`https://authentik.example.com/application/o/plants/`); `audience`: its Client
 *   ID; `jwksUri`: its JWKS URL, default `{issuer}jwks/`
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer(authentik({ issuer: 'https://authentik.example.com/application/o/plants/', audience: 'aBcDeF123' }));
 * ```
 */
export function authentik(options: AuthentikPresetOptions): AuthentikPreset {
  const checks = { issuer: baseUrl, audience: nameList, jwksUri: optional(baseUrl) };
  const { issuer, audience, jwksUri } = presetValues('authentik', options, checks);
  const keys = jwksUri ?? `${issuer.endsWith('/') ? issuer : `${issuer}/`}jwks/`;
  return { jwksUri: keys, issuer, audience, [PRESET_REQUIRED_CLAIMS]: ['azp', 'uid'] };
}

import {
  baseUrl,
  nameList,
  presetValues,
  withoutTrailingSlash,
  type PresetOf,
} from './preset-values';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

/** Options of {@link oryHydra}: Hydra's issuer and the audience clients request for this API. */
export type OryHydraPresetOptions = Readonly<{
  issuer: string;
  audience: string | readonly string[];
}>;

/** The `jwtBearer` options of an API taking Ory Hydra's JWT access tokens. */
export type OryHydraPreset = PresetOf<
  'jwksUri' | 'issuer' | 'audience' | 'scopeClaims' | typeof PRESET_REQUIRED_CLAIMS
>;

/**
 * Ory Hydra (and Ory Network), with `strategies.access_token` set to `jwt` (its default is opaque):
 * `iss` the configured issuer, keys from `{issuer}/.well-known/jwks.json`, scopes from the `scp` list.
 * `client_id` is required: Hydra puts it in access tokens, never in ID tokens.
 *
 * @param options - `issuer`: `urls.self.issuer` exactly as configured
 *   (`https://plants-abc.projects.oryapis.com`); `audience`: what clients request with the
 *   `audience` parameter, allowed on their OAuth2 client
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer(oryHydra({ issuer: 'https://plants-abc.projects.oryapis.com', audience: 'https://plants.example.com' }));
 * ```
 */
export function oryHydra(options: OryHydraPresetOptions): OryHydraPreset {
  const values = presetValues('oryHydra', options, { issuer: baseUrl, audience: nameList });
  const jwksUri = `${withoutTrailingSlash(values.issuer)}/.well-known/jwks.json`;
  return { ...values, jwksUri, scopeClaims: ['scp'], [PRESET_REQUIRED_CLAIMS]: ['client_id'] };
}

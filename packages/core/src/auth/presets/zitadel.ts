import { nameList, presetValues, trimmedUrl, type PresetOf } from './preset-values';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

/** Options of {@link zitadel}: the instance's URL and the project (or client) ids in `aud`. */
export type ZitadelPresetOptions = Readonly<{
  issuer: string;
  audience: string | readonly string[];
}>;

/** The `jwtBearer` options of an API taking a ZITADEL instance's JWT access tokens. */
export type ZitadelPreset = PresetOf<
  'jwksUri' | 'issuer' | 'audience' | typeof PRESET_REQUIRED_CLAIMS
>;

/**
 * ZITADEL, with the application's Auth Token Type set to JWT (its default is opaque): `iss` the
 * instance URL, keys from `{issuer}/oauth/v2/keys`, `aud` the project and its clients. ID tokens
 * share that audience, so `jti` is required: ZITADEL's claims table puts it in access tokens only.
 *
 * @param options - `issuer`: the instance's URL (`https://plants-abc123.zitadel.cloud`, or a custom
 *   domain; ZITADEL's `iss` never ends with `/`); `audience`: the project's Resource Id and/or the
 *   API application's Client Id
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer(zitadel({ issuer: 'https://plants-abc123.zitadel.cloud', audience: '249341813410513163' }));
 * ```
 */
export function zitadel(options: ZitadelPresetOptions): ZitadelPreset {
  const { issuer, audience } = presetValues('zitadel', options, {
    issuer: trimmedUrl,
    audience: nameList,
  });
  const jwksUri = `${issuer}/oauth/v2/keys`;
  return { jwksUri, issuer, audience, [PRESET_REQUIRED_CLAIMS]: ['jti'] };
}

import { ID_TOKENS_ACCEPTED } from '../jwt/options/preset-keys';
import { named, presetValues, type PresetOf } from './preset-values';

/** Options of {@link firebase}: the Project ID of Project settings. */
export type FirebasePresetOptions = Readonly<{ projectId: string }>;

/** The `jwtBearer` options of an API taking Firebase Authentication's ID tokens. */
export type FirebasePreset = PresetOf<
  'jwksUri' | 'issuer' | 'audience' | typeof ID_TOKENS_ACCEPTED
>;

const GOOGLE_KEYS =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

/**
 * Firebase Authentication (and Google Cloud Identity Platform): `iss`
 * `https://securetoken.google.com/{projectId}`, `aud` the project ID, keys from Google's
 * `securetoken@system.gserviceaccount.com` JWKS. Firebase's ID tokens are its bearer tokens by
 * design, so this preset accepts them (a key only presets set: no hand-written option turns the
 * refusal of ID tokens off); they carry no scopes (check claims such as `firebase.sign_in_provider`
 * in your handler).
 *
 * @param options - `projectId`: the Project ID (`plants-12345`)
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError when the project ID is missing or malformed
 * @example
 * ```ts
 * jwtBearer(firebase({ projectId: 'plants-12345' }));
 * ```
 */
export function firebase(options: FirebasePresetOptions): FirebasePreset {
  // Google's rule for project ids: 6 to 30 lower-case letters, digits and hyphens.
  const checks = { projectId: named(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/u) };
  const { projectId } = presetValues('firebase', options, checks);
  const issuer = `https://securetoken.google.com/${projectId}`;
  return { jwksUri: GOOGLE_KEYS, issuer, audience: projectId, [ID_TOKENS_ACCEPTED]: true };
}

import type { JwtBearerIssuerOptions } from '../jwt/options/jwt-bearer-option-types';
import { optionError } from '../../options/check-options';
import { named, optional, presetValues, trimmedUrl, type PresetOf } from './preset-values';

/** Where the Supabase project is: its Project ref, or its API URL (needed with a custom domain). */
export type SupabaseProject =
  | Readonly<{ projectRef: string; url?: undefined }>
  | Readonly<{ url: string; projectRef?: undefined }>;

/** Options of {@link supabase}; `jwtSecret` only while legacy tokens are still valid. */
export type SupabasePresetOptions = SupabaseProject & { readonly jwtSecret?: string | undefined };

/** The `jwtBearer` options of an API taking a Supabase project's user tokens, from its JWKS. */
export type SupabasePreset = PresetOf<'jwksUri' | 'issuer' | 'audience'>;

/** The same during a rotation: one issuer, two key sources (the JWKS and the legacy secret). */
export type SupabaseRotationPreset = Readonly<{
  issuers: readonly [JwtBearerIssuerOptions, JwtBearerIssuerOptions];
}>;

/**
 * Supabase Auth: `iss` `{url}/auth/v1`, `aud` `authenticated` (signed-in users; the anon and
 * service-role keys are not user tokens and are refused), keys from
 * `{url}/auth/v1/.well-known/jwks.json`. With `jwtSecret`, the same issuer also has the legacy HS256
 * secret as a second key source: a token is tried only against the source its `alg` fits, so
 * nobody is signed out while the project moves to asymmetric signing keys.
 *
 * @param options - `projectRef`: the Project ref (`https://{ref}.supabase.co`), or `url`: the
 *   project's API URL (a custom domain); `jwtSecret`: the Legacy JWT Secret, while tokens it signed
 *   may still be presented (leave it out once they have all expired)
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed, or both places are given
 * @example
 * ```ts
 * jwtBearer(supabase({ projectRef: 'abcdefghijklmnopqrst', jwtSecret: process.env.SUPABASE_JWT_SECRET }));
 * ```
 */
export function supabase(
  options: SupabaseProject & { readonly jwtSecret?: undefined },
): SupabasePreset;
export function supabase(
  options: SupabaseProject & { readonly jwtSecret: string },
): SupabaseRotationPreset;
export function supabase(options: SupabasePresetOptions): SupabasePreset | SupabaseRotationPreset;
export function supabase(options: SupabasePresetOptions): SupabasePreset | SupabaseRotationPreset {
  const { projectRef, url, jwtSecret } = presetValues('supabase', options, {
    projectRef: optional(named(/^[a-z0-9]+$/u)),
    url: optional(trimmedUrl),
    jwtSecret: optional(named(/^.+$/su)),
  });
  if ((projectRef === undefined) === (url === undefined)) {
    const received = url === undefined ? 'neither' : 'both';
    optionError('supabase', 'projectRef', 'or "url" is required, not both', received);
  }
  const issuer = `${url ?? `https://${projectRef}.supabase.co`}/auth/v1`;
  const audience = 'authenticated';
  const fromJwks = { jwksUri: `${issuer}/.well-known/jwks.json`, issuer, audience };
  if (jwtSecret === undefined) return fromJwks;
  const legacy = { issuer, secret: jwtSecret, algorithms: ['HS256'] as const, audience };
  return { issuers: [fromJwks, legacy] };
}

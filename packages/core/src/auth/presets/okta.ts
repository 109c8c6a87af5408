import { hostName, named, nameList, orDefault, presetValues, type PresetOf } from './preset-values';

/** Options of {@link okta}: what the Admin Console shows (Security > API > Authorization Servers). */
export type OktaPresetOptions = Readonly<{
  domain: string;
  authServerId?: string;
  audience?: string | readonly string[];
}>;

/** The `jwtBearer` options of an API behind an Okta custom authorization server. */
export type OktaPreset = PresetOf<'jwksUri' | 'issuer' | 'audience' | 'scopeClaims'>;

/**
 * Okta, custom authorization server: `iss` `https://{domain}/oauth2/{authServerId}`, keys from
 * `{issuer}/v1/keys`, scopes from the `scp` list. The org authorization server (`iss`
 * `https://{domain}`) is deliberately not offered: Okta documents its access tokens as meant for
 * Okta's own APIs only (their keys may change at any time), and they are refused here (`issuer_mismatch`).
 *
 * @param options - `domain`: the Okta domain (`dev-123456.okta.com`) or a custom domain, without
 *   `https://`; `authServerId`: the server's ID, default `default`; `audience`: its Audience
 *   setting, default `api://default`
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer({ ...okta({ domain: 'dev-123456.okta.com' }), requiredScopes: ['plants:write'] });
 * ```
 */
export function okta(options: OktaPresetOptions): OktaPreset {
  const { domain, authServerId, audience } = presetValues('okta', options, {
    domain: hostName,
    // Okta's ids are letters and digits (`aus1a2b3c4d5e6f7g8h9`), or `default`.
    authServerId: orDefault(named(/^[A-Za-z0-9]+$/u), 'default'),
    audience: orDefault(nameList, 'api://default'),
  });
  const issuer = `https://${domain}/oauth2/${authServerId}`;
  return { jwksUri: `${issuer}/v1/keys`, issuer, audience, scopeClaims: ['scp'] };
}

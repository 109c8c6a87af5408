import type { Factory } from '../../options/check-options';
import { hostName, nameList, presetValues, trimmedUrl, type PresetOf } from './preset-values';

/** Options of {@link clerk}: the Frontend API URL, and the origins of your own front ends. */
export type ClerkPresetOptions = Readonly<{
  frontendApi: string;
  authorizedParties: string | readonly string[];
}>;

/** The `jwtBearer` options of an API taking Clerk session tokens. */
export type ClerkPreset = PresetOf<'jwksUri' | 'issuer' | 'clients'>;

// The dashboard shows the URL; the publishable key encodes the bare host.
function frontendApiUrl(factory: Factory, option: string, value: unknown): string {
  if (typeof value === 'string' && !value.includes('://')) {
    return `https://${hostName(factory, option, value)}`;
  }
  return trimmedUrl(factory, option, value);
}

/**
 * Clerk session tokens: `iss` the Frontend API URL, keys from `{issuer}/.well-known/jwks.json`. They
 * carry no `aud`; `azp`, the origin of the page that asked for the token, is checked against
 * `authorizedParties` (a token without it, which Clerk omits when the Origin was empty, is refused).
 *
 * @param options - `frontendApi`: the Frontend API URL of the API keys page
 *   (`https://clerk.example.com`, `https://verb-noun-00.clerk.accounts.dev` in development), with or
 *   without `https://`; `authorizedParties`: the origins your front ends run on (`https://example.com`)
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer(clerk({ frontendApi: 'https://clerk.example.com', authorizedParties: ['https://example.com'] }));
 * ```
 */
export function clerk(options: ClerkPresetOptions): ClerkPreset {
  const checks = { frontendApi: frontendApiUrl, authorizedParties: nameList };
  const { frontendApi: issuer, authorizedParties } = presetValues('clerk', options, checks);
  return { jwksUri: `${issuer}/.well-known/jwks.json`, issuer, clients: authorizedParties };
}

import type { JwtBearerIssuerOptions } from '../jwt/options/jwt-bearer-option-types';
import {
  entraIdIssuers,
  ENTRA_ID_APP_CHECKS,
  ENTRA_ID_SCOPES,
  type EntraIdAppOptions,
} from './entra-id-versions';
import { guid, presetValues } from './preset-values';

/** Options of {@link entraId}: the app registration's tenant and ids. */
export type EntraIdPresetOptions = EntraIdAppOptions & { readonly tenantId: string };

/** The `jwtBearer` options of an Entra ID API: one `issuers` entry per accepted token version. */
export type EntraIdPreset = Readonly<{
  issuers: readonly JwtBearerIssuerOptions[];
  scopeClaims: readonly string[];
}>;

/**
 * Microsoft Entra ID, single tenant. v2.0 tokens: `iss` `https://login.microsoftonline.com/{tenantId}/v2.0`,
 * `aud` the API's client ID (a GUID, never `api://…`), keys from `…/{tenantId}/discovery/v2.0/keys`.
 * v1.0 tokens: `iss` `https://sts.windows.net/{tenantId}/`, `aud` the Application ID URI or the
 * client ID, keys from `…/{tenantId}/discovery/keys`. Scopes come from `scp` (delegated) and
 * `roles` (app roles); the calling client's claim (`azp`, `appid`) is required, which ID tokens lack.
 *
 * @param options - `tenantId`: the Directory (tenant) ID; the others as {@link EntraIdAppOptions}
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * jwtBearer({ ...entraId({ tenantId, clientId }), requiredScopes: ['plants.write'] });
 * ```
 */
export function entraId(options: EntraIdPresetOptions): EntraIdPreset {
  const checks = { ...ENTRA_ID_APP_CHECKS, tenantId: guid };
  const { tenantId, ...app } = presetValues('entraId', options, checks);
  const tenant = { issuer: tenantId, keys: tenantId };
  return { issuers: entraIdIssuers(app, tenant, {}), scopeClaims: ENTRA_ID_SCOPES };
}

import { describeValue, optionError, type Factory } from '../../options/check-options';
import {
  entraIdIssuers,
  ENTRA_ID_APP_CHECKS,
  ENTRA_ID_SCOPES,
  type EntraIdAppOptions,
} from './entra-id-versions';
import type { EntraIdPreset } from './entra-id';
import { guid, presetValues } from './preset-values';

/** Options of {@link entraIdMultiTenant}: the app registration's ids, and the tenants it serves. */
export type EntraIdMultiTenantPresetOptions = EntraIdAppOptions & {
  readonly tenants: readonly string[] | ((tenantId: string) => boolean);
};

/**
 * Microsoft Entra ID, multi-tenant ("Accounts in any organizational directory"): Microsoft's
 * issuer templates `https://login.microsoftonline.com/{tenantid}/v2.0` and
 * `https://sts.windows.net/{tenantid}/`, bound to the token's `tid`, tenants limited by `tenants`,
 * keys from the tenant-independent `…/common/discovery/v2.0/keys` (and `…/common/discovery/keys`).
 * Everything else is as {@link entraId}.
 *
 * @param options - `tenants`: the Directory (tenant) IDs whose tokens are accepted, or a function
 *   deciding on one (a lookup in your customer table), asked only once the token's `iss` names its
 *   own `tid`; the others as {@link EntraIdAppOptions}
 * @returns the options to spread into `jwtBearer`
 * @throws TypeError naming the option when a value is missing or malformed
 * @example
 * ```ts
 * const tenants = (tid: string) => customers.has(tid);
 * jwtBearer({ ...entraIdMultiTenant({ clientId, tenants }), requiredScopes: ['plants.write'] });
 * ```
 */
export function entraIdMultiTenant(options: EntraIdMultiTenantPresetOptions): EntraIdPreset {
  const checks = { ...ENTRA_ID_APP_CHECKS, tenants: tenantsOption };
  const { tenants, ...app } = presetValues('entraIdMultiTenant', options, checks);
  const tenant = { issuer: '{tenantid}', keys: 'common' };
  return { issuers: entraIdIssuers(app, tenant, { tenants }), scopeClaims: ENTRA_ID_SCOPES };
}

function tenantsOption(
  factory: Factory,
  option: string,
  value: unknown,
): readonly string[] | ((tenantId: string) => boolean) {
  if (typeof value === 'function') return value as (tenantId: string) => boolean;
  if (Array.isArray(value) && value.length > 0) {
    return value.map((tenant: unknown, i) => guid(factory, `${option}[${i}]`, tenant));
  }
  const expected = 'must be a non-empty list of tenant IDs or a function';
  return optionError(factory, option, expected, describeValue(value));
}

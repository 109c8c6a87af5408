// Microsoft Entra ID's two access-token formats, which one app registration chooses between with
// `api.requestedAccessTokenVersion` in its manifest (null, Microsoft's default, means 1).

import type { JwtBearerIssuerOptions } from '../jwt/options/jwt-bearer-option-types';
import { describeValue, optionError, type Factory } from '../../options/check-options';
import { baseUrl, guid, optional } from './preset-values';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

/** The access-token versions an Entra ID preset accepts: `1`, `2`, or both when not said. */
export type EntraIdTokenVersion = 1 | 2;

/** What every Entra ID preset is given about the API's app registration. */
export interface EntraIdAppOptions {
  /** The API's Application (client) ID: a v2.0 token's `aud`, and one a v1.0 token may carry. */
  readonly clientId: string;
  /** The API's Application ID URI (Expose an API), a v1.0 token's `aud`. Default `api://{clientId}`. */
  readonly appIdUri?: string;
  /**
   * The manifest's `requestedAccessTokenVersion` (`accessTokenAcceptedVersion` in the older
   * manifest): 1 for `https://sts.windows.net/{tid}/` tokens, 2 for
   * `https://login.microsoftonline.com/{tid}/v2.0` ones. Default: both, as one registration issues
   * only one of them and the other costs nothing to accept.
   */
  readonly requestedAccessTokenVersion?: EntraIdTokenVersion;
}

/** The tenants a multi-tenant entry accepts; nothing for a single tenant. */
export interface EntraIdTenants {
  readonly tenants?: readonly string[] | ((tenantId: string) => boolean);
}

/** Where one version's tokens come from: `tenant` is a GUID or the `{tenantid}` template. */
interface VersionEntry {
  readonly issuer: (tenant: string) => string;
  readonly jwksUri: (tenant: string) => string;
  readonly audience: (clientId: string, appIdUri: string) => string[];
  // An access-token claim ID tokens lack (`azp` or `appid`, the calling client).
  readonly requiredClaims: readonly string[];
}

const LOGIN = 'https://login.microsoftonline.com';
const VERSIONS: Readonly<Record<EntraIdTokenVersion, VersionEntry>> = {
  2: {
    issuer: (tenant) => `${LOGIN}/${tenant}/v2.0`,
    jwksUri: (tenant) => `${LOGIN}/${tenant}/discovery/v2.0/keys`,
    audience: (clientId) => [clientId],
    requiredClaims: ['azp'],
  },
  1: {
    issuer: (tenant) => `https://sts.windows.net/${tenant}/`,
    jwksUri: (tenant) => `${LOGIN}/${tenant}/discovery/keys`,
    audience: (clientId, appIdUri) => [appIdUri, clientId],
    requiredClaims: ['appid'],
  },
};

/** Delegated scopes arrive in `scp`, app roles (application permissions) in `roles`. */
export const ENTRA_ID_SCOPES: readonly string[] = ['scp', 'roles'];

/** The checks of {@link EntraIdAppOptions}, shared by both Entra ID presets. */
export const ENTRA_ID_APP_CHECKS = {
  clientId: guid,
  appIdUri: optional(appIdUriOption),
  requestedAccessTokenVersion: optional(tokenVersion),
};

/** {@link EntraIdAppOptions} once checked. */
export interface EntraIdApp {
  readonly clientId: string;
  readonly appIdUri: string | undefined;
  readonly requestedAccessTokenVersion: EntraIdTokenVersion | undefined;
}

/**
 * The `issuers` entries of an Entra ID preset, one per accepted version, v2.0 first.
 *
 * @param app - the app registration's values, checked
 * @param tenant - in `iss`, a tenant's GUID or the `{tenantid}` template; in the JWKS URL, the same
 *   GUID or `common` (the keys every tenant shares)
 * @param extra - what every entry adds (`tenants` for a multi-tenant app)
 * @returns one or two entries
 * @example
 * ```ts
 * entraIdIssuers(app, { issuer: tenantId, keys: tenantId }, {});
 * ```
 */
export function entraIdIssuers(
  app: EntraIdApp,
  tenant: { readonly issuer: string; readonly keys: string },
  extra: EntraIdTenants,
): JwtBearerIssuerOptions[] {
  const { clientId, requestedAccessTokenVersion: version } = app;
  const appIdUri = app.appIdUri ?? `api://${clientId}`;
  return (version === undefined ? ([2, 1] as const) : [version]).map((v) => {
    const entry = VERSIONS[v];
    return {
      ...extra,
      issuer: entry.issuer(tenant.issuer),
      jwksUri: entry.jwksUri(tenant.keys),
      audience: entry.audience(clientId, appIdUri),
      [PRESET_REQUIRED_CLAIMS]: entry.requiredClaims,
    };
  });
}

// An Application ID URI is `api://…`, or an https: URL on a verified domain.
function appIdUriOption(factory: Factory, option: string, value: unknown): string {
  if (typeof value === 'string' && /^api:\/\/\S+$/u.test(value)) return value;
  return baseUrl(factory, option, value);
}

function tokenVersion(factory: Factory, option: string, value: unknown): EntraIdTokenVersion {
  if (value === 1 || value === 2) return value;
  return optionError(factory, option, 'must be 1 or 2', describeValue(value));
}

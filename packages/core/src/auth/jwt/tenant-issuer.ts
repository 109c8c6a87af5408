import { decodeJwt } from 'jose';
import { InvalidTokenError } from '../../errors/bearer-errors';
import { toAuthError } from './jose-failure';

/** The placeholder of a tenant-templated issuer, as Entra ID's own metadata writes it. */
export const TENANT_PLACEHOLDER = '{tenantid}';

/** A tenant id as it may stand in an issuer URL: one path segment, no `/`, `?`, `#` or `%`. */
export const TENANT_ID = /^[A-Za-z0-9._-]+$/;

/** A checked tenant-templated issuer: `https://login.microsoftonline.com/{tenantid}/v2.0`. */
export interface TenantIssuer {
  /** The issuer as configured, with the placeholder. */
  readonly template: string;
  /** The template's text before and after the placeholder, split once at start-up. */
  readonly prefix: string;
  readonly suffix: string;
  /** The claim that must name the same tenant as the issuer: `tid` by default. */
  readonly claim: string;
  /** Whether a tenant is accepted: its id is on the allow-list, or the predicate says so. */
  readonly allows: (tenantId: string) => boolean;
  /** The accepted issuers, each written out, when `tenants` is a list; undefined for a predicate. */
  readonly listed: readonly string[] | undefined;
}

/**
 * The tenant an `iss` names under a template, or undefined when it does not fit the template.
 *
 * @param tenant - the template
 * @param iss - a token's `iss`
 * @returns the tenant id
 * @example
 * ```ts
 * tenantOf(entra, 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0');
 * // '9188040d-6c67-4c5b-b112-36a304b66dad'
 * ```
 */
export function tenantOf(tenant: TenantIssuer, iss: string): string | undefined {
  const { prefix, suffix } = tenant;
  if (iss.length <= prefix.length + suffix.length) return undefined;
  if (!iss.startsWith(prefix) || !iss.endsWith(suffix)) return undefined;
  const id = iss.slice(prefix.length, iss.length - suffix.length);
  return TENANT_ID.test(id) ? id : undefined;
}

/**
 * The exact issuer a token of a tenant-templated issuer must be verified against, decided before any
 * key is used: its `iss` must fit the template, its tenant claim (`tid`) must name the same tenant,
 * and that tenant must be accepted. Entra ID signs every tenant's tokens with the same common keys,
 * so without the claim check a token of any tenant could name an accepted one in `iss` alone.
 *
 * @param tenant - the template and its tenants
 * @param token - a well-formed compact JWS
 * @returns the token's `iss`, for jose to check again on the verified payload
 * @throws {@link InvalidTokenError} `issuer_mismatch`, or `token_malformed` for a payload that is
 *   not a JSON object
 * @example
 * ```ts
 * const issuer = tenantIssuerOf(entra, token); // then jwtVerify(token, key, { issuer, … })
 * ```
 */
export function tenantIssuerOf(tenant: TenantIssuer, token: string): string {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token);
  } catch (error) {
    throw toAuthError(error);
  }
  const { iss } = claims;
  const id = typeof iss === 'string' ? tenantOf(tenant, iss) : undefined;
  if (id === undefined || claims[tenant.claim] !== id || !tenant.allows(id)) {
    throw new InvalidTokenError('issuer_mismatch', 'The token names no accepted issuer or tenant');
  }
  return iss as string;
}

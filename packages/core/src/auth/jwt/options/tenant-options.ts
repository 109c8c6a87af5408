import { describeValue, optionError } from '../../../options/check-options';
import { TENANT_ID, TENANT_PLACEHOLDER, type TenantIssuer } from '../tenant-issuer';

/** A tenant-templated issuer's options as given, unchecked. */
export interface TenantOptionValues {
  readonly issuer?: unknown;
  readonly tenants?: unknown;
  readonly tenantClaim?: unknown;
}

const CLAIM_NAME = /^[\x21-\x7e]+$/u;

function allowList(value: unknown, option: string): readonly string[] {
  const valid =
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((id) => typeof id === 'string' && TENANT_ID.test(id));
  if (valid) return [...(value as string[])];
  return optionError(
    'jwtBearer',
    option,
    'must be a non-empty list of tenant ids ([A-Za-z0-9._-]) or a function (tenantId) => boolean',
    describeValue(value),
  );
}

/**
 * Checks a tenant-templated issuer (`issuer` holding `{tenantid}` once), once, at start-up: it needs
 * `tenants`, an allow-list or a predicate, since a multi-tenant provider's keys sign the tokens of
 * every tenant in the world; `tenantClaim` names the claim bound to the tenant (`tid`).
 *
 * @param options - the issuer's `issuer`, `tenants` and `tenantClaim`
 * @param name - the option's full name (`issuers[1].tenants`) from its short one
 * @returns the template, or undefined for an issuer without the placeholder
 * @throws TypeError naming the option: `tenants` missing or given without a template, a bad tenant
 *   id or claim name, the placeholder more than once or in a list of issuers
 * @example
 * ```ts
 * tenantOptions({ issuer: 'https://sts.windows.net/{tenantid}/', tenants: [TENANT] }, (o) => o);
 * ```
 */
export function tenantOptions(
  options: TenantOptionValues,
  name: (option: string) => string,
): TenantIssuer | undefined {
  const { issuer, tenants, tenantClaim } = options;
  const templated = (value: unknown) =>
    typeof value === 'string' && value.includes(TENANT_PLACEHOLDER);
  if (Array.isArray(issuer) && issuer.some(templated)) {
    optionError(
      'jwtBearer',
      name('issuer'),
      `with ${TENANT_PLACEHOLDER} must be one string`,
      'a list',
    );
  }
  if (!templated(issuer)) {
    const stray =
      tenants !== undefined ? 'tenants' : tenantClaim !== undefined ? 'tenantClaim' : '';
    if (stray !== '') {
      optionError(
        'jwtBearer',
        name(stray),
        `applies only to an issuer with ${TENANT_PLACEHOLDER}`,
        'a value',
      );
    }
    return undefined;
  }
  const template = issuer as string;
  const [prefix = '', suffix = '', ...more] = template.split(TENANT_PLACEHOLDER);
  if (more.length > 0) {
    optionError(
      'jwtBearer',
      name('issuer'),
      `must hold ${TENANT_PLACEHOLDER} once`,
      `"${template}"`,
    );
  }
  if (
    tenantClaim !== undefined &&
    (typeof tenantClaim !== 'string' || !CLAIM_NAME.test(tenantClaim))
  ) {
    optionError(
      'jwtBearer',
      name('tenantClaim'),
      'must be a claim name',
      describeValue(tenantClaim),
    );
  }
  const claim = tenantClaim ?? 'tid';
  if (typeof tenants === 'function') {
    const predicate = tenants as (tenantId: string) => unknown;
    return {
      template,
      prefix,
      suffix,
      claim,
      allows: (id) => predicate(id) === true,
      listed: undefined,
    };
  }
  const ids = allowList(tenants, name('tenants'));
  const accepted = new Set(ids);
  return {
    template,
    prefix,
    suffix,
    claim,
    allows: (id) => accepted.has(id),
    listed: ids.map((id) => template.replace(TENANT_PLACEHOLDER, id)),
  };
}

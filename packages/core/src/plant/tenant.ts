import type { Principal } from '../auth/principal';
import { InvalidTokenError } from '../errors/bearer-errors';
import { describeValue, optionError } from '../options/check-options';

/** The service's `tenant` option: a claim name, or a function of the verified principal. */
export type TenantOption = string | ((principal: Principal) => string | undefined);

/** The tenant of a verified caller; throws 401 `invalid_token` when it has none or a bad one. */
export type TenantOf = (principal: Principal) => string;

// 1–128 printable ASCII, no space and no braces: a tenant is part of Redis keys (braces would move
// the Cluster hash tag) and DynamoDB keys, and is bounded so that no token can grow a key.
const TENANT = /^[\x21-\x7a\x7c\x7e]{1,128}$/u;

/**
 * Checks the `tenant` option once, at the factory, and makes the function that reads a caller's
 * tenant. A token without the tenant cannot be placed anywhere, so it does not fit this resource:
 * 401 `invalid_token` (`tenant_missing`), not 403, which would say the token is right but short of
 * a permission.
 *
 * @param factory - the factory's name, for the error
 * @param option - what the host passed
 * @returns the reader, or `undefined` when tenants are off (every plant is in tenant `''`)
 * @throws TypeError when the option is not a claim name or a function
 * @example
 * ```ts
 * const tenantOf = tenantOption('Plantstore', 'tid');
 * tenantOf?.(principal); // '72f988bf-…'
 * ```
 */
export function tenantOption(factory: string, option: unknown): TenantOf | undefined {
  if (option === undefined) return undefined;
  let read: (principal: Principal) => unknown;
  if (typeof option === 'string' && option.length > 0) {
    read = (principal) => principal.claims[option];
  } else if (typeof option === 'function') {
    read = option as (principal: Principal) => unknown;
  } else {
    return optionError(
      factory,
      'tenant',
      "must be a claim name such as 'tid' or a function of the principal",
      describeValue(option),
    );
  }
  return (principal) => {
    const tenant = read(principal);
    if (tenant === undefined || tenant === null || tenant === '') {
      throw new InvalidTokenError('tenant_missing', 'The token names no tenant');
    }
    if (typeof tenant !== 'string' || !TENANT.test(tenant)) {
      throw new InvalidTokenError('tenant_invalid', 'The token names no valid tenant');
    }
    return tenant;
  };
}

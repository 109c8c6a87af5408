import type { Principal } from '../auth/principal';
import { assertScopesGranted } from '../auth/claims/scopes-granted';
import { InsufficientScopeError } from '../errors/bearer-errors';
import { ClaimMismatchError } from '../errors/client-errors';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  stringList,
} from '../options/check-options';
import type { PrincipalCheck } from '../service/request-auth';

/** A claim value a guard compares with `===`: what a JWT claim holds that is not an object. */
export type ClaimValue = string | number | boolean;

/**
 * What a guard requires of one claim: a value (the claim is that value, or an array holding it,
 * as `groups` or `roles` are), one of a list of values (likewise), or a predicate on every verified
 * claim of the token.
 */
export type ClaimRequirement =
  ClaimValue | readonly ClaimValue[] | ((claims: Readonly<Record<string, unknown>>) => boolean);

/** What one guarded route requires beyond a valid token: `guard(service, options)`. */
export interface GuardOptions {
  /**
   * Scopes this route requires, on top of the ones `jwtBearer`'s own `requiredScopes` requires of
   * every request. A token without them is answered 403 `insufficient_scope` naming them.
   */
  readonly requiredScopes?: readonly string[] | undefined;
  /** `'all'` (the default): every one of `requiredScopes`; `'any'`: at least one. */
  readonly scopeMatch?: 'all' | 'any' | undefined;
  /**
   * Claims this route requires, by name: a token whose claim fails is answered 403
   * `claim_mismatch`, without a `WWW-Authenticate` challenge (no scope would change it).
   */
  readonly claims?: Readonly<Record<string, ClaimRequirement>> | undefined;
}

const KNOWN = new Set(['requiredScopes', 'scopeMatch', 'claims']);
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/u;

/**
 * Checks a guard's options once, when the guard is made, and turns them into the check of a
 * verified principal: `undefined` when the route requires nothing beyond a valid token.
 *
 * @param factory - the caller's name for messages, such as `guard`
 * @param options - what the host passed
 * @returns the check, or `undefined`
 * @throws TypeError naming the first bad option
 * @example
 * ```ts
 * const check = guardCheck('guard', { requiredScopes: ['plants:read'], claims: { tenant: 'acme' } });
 * ```
 */
export function guardCheck(factory: string, options: unknown): PrincipalCheck | undefined {
  if (options === undefined) return undefined;
  checkKnownOptions(factory, options as GuardOptions, KNOWN);
  const given = options as GuardOptions;
  const scopes =
    stringList(factory, 'requiredScopes', given.requiredScopes, {
      pattern: SCOPE,
      items: 'scope tokens (RFC 6749 §3.3: no space, quote or backslash)',
      emptyAllowed: true,
    }) ?? [];
  const match = given.scopeMatch ?? 'all';
  if (match !== 'all' && match !== 'any') {
    optionError(factory, 'scopeMatch', "must be 'all' or 'any'", describeValue(match));
  }
  const claims = claimChecks(factory, given.claims);
  if (scopes.length === 0 && claims.length === 0) return undefined;
  return (principal) => {
    if (scopes.length > 0) {
      if (match === 'all') assertScopesGranted(principal, scopes);
      else if (!scopes.some((scope) => principal.scopes.includes(scope))) {
        throw new InsufficientScopeError(scopes);
      }
    }
    for (const check of claims) check(principal);
  };
}

function claimChecks(factory: string, value: unknown): ((principal: Principal) => void)[] {
  if (value === undefined) return [];
  checkPlainObject(factory, value);
  return Object.entries(value as Record<string, unknown>).map(([name, wanted]) => {
    if (typeof wanted === 'function') {
      const predicate = wanted as (claims: Readonly<Record<string, unknown>>) => boolean;
      return (principal) => {
        if (predicate(principal.claims) !== true) throw new ClaimMismatchError(name);
      };
    }
    const accepted = Array.isArray(wanted) ? (wanted as unknown[]) : [wanted];
    if (accepted.length === 0 || !accepted.every(isClaimValue)) {
      optionError(
        factory,
        `claims.${name}`,
        'must be a string, number or boolean, a non-empty array of them, or a function of the claims',
        describeValue(wanted),
      );
    }
    return (principal) => {
      const claim = principal.claims[name];
      const held: readonly unknown[] = Array.isArray(claim) ? claim : [claim];
      if (!held.some((item) => (accepted as readonly unknown[]).includes(item))) {
        throw new ClaimMismatchError(name);
      }
    };
  });
}

function checkPlainObject(factory: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    optionError(factory, 'claims', 'must be an object of claim names', describeValue(value));
  }
}

function isClaimValue(value: unknown): value is ClaimValue {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

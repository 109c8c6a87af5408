import type { Principal } from './principal';

// A registered symbol, so that a second installed copy of the core reads what this one wrote.
const key = Symbol.for('@plantstore/core/refused-principal');

/**
 * Marks a refusal that came after the token was verified (a missing scope, a DPoP proof that fails)
 * with the token's principal, so the hooks can tell who was refused. The field is symbol-keyed and
 * non-enumerable: a logger that serialises the error, or an answer built from it, never shows the
 * claims; only {@link refusedPrincipal} reads it.
 *
 * @param error - the refusal, usually a `PlantServiceError`
 * @param principal - the verified token's principal
 * @returns the same error, for `throw refusedWith(new InsufficientScopeError(scopes), principal)`
 * @example
 * ```ts
 * throw refusedWith(new InsufficientScopeError(requiredScopes), principal);
 * ```
 */
export function refusedWith<E>(error: E, principal: Principal): E {
  if (typeof error === 'object' && error !== null && Object.isExtensible(error)) {
    Object.defineProperty(error, key, { value: principal, configurable: true });
  }
  return error;
}

/**
 * The principal a refusal was marked with by {@link refusedWith}.
 *
 * @param error - anything caught
 * @returns the principal, or `undefined` when the token was not verified
 */
export function refusedPrincipal(error: unknown): Principal | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  return (error as { readonly [key]?: Principal })[key];
}

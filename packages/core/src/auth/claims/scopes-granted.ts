import { InsufficientScopeError } from '../../errors/bearer-errors';
import type { Principal } from '../principal';
import { refusedWith } from '../refused-principal';

/**
 * Checks that a verified token grants every required scope. The refusal carries the principal, so
 * the hooks learn whose token it was (never the client).
 *
 * @param principal - the verified token's principal, its scopes read from the configured claims
 * @param required - the scopes the route requires; empty: any token passes
 * @returns the principal, unchanged
 * @throws {@link InsufficientScopeError} 403 `insufficient_scope` naming the required scopes
 * @example
 * ```ts
 * assertScopesGranted(principal, ['plants:write']);
 * ```
 */
export function assertScopesGranted(principal: Principal, required: readonly string[]): Principal {
  for (const scope of required) {
    if (!principal.scopes.includes(scope)) {
      throw refusedWith(new InsufficientScopeError(required), principal);
    }
  }
  return principal;
}

import type { JWTPayload } from 'jose';
import { InvalidTokenError } from '../errors/bearer-errors';
import { deepFreeze } from '../common/deep-freeze';
import type { Principal } from './principal';
import { readScopes } from './scopes';

/**
 * Builds the principal of a verified token: its subject, scopes and claims, deeply frozen. The same
 * principal is handed to every later request with that token (from the cache), to the store, the hooks
 * and the host (`res.locals`, `ctx.state`): a hook that changed it would change them all.
 *
 * @param payload - the verified claims
 * @param scopeClaims - which claims grant scopes
 * @returns the frozen principal
 * @throws {@link InvalidTokenError} `claim_invalid` for a `sub` that is not a string the store can
 *   keep exactly (U+0000, an unpaired surrogate) or a scope claim of the wrong form
 * @example
 * ```ts
 * principalOf({ sub: 'alice', scope: 'plants:write' }, ['scope']).scopes; // ['plants:write']
 * ```
 */
export function principalOf(payload: JWTPayload, scopeClaims: readonly string[]): Principal {
  const { sub } = payload;
  if (sub !== undefined && !isStorableText(sub)) {
    throw new InvalidTokenError('claim_invalid', 'The sub claim is not a string that can be kept');
  }
  const scopes = readScopes(payload, scopeClaims);
  return deepFreeze({ subject: sub, scopes, claims: payload });
}

// PostgreSQL refuses U+0000 in text and a lone surrogate would be stored as U+FFFD: a subject the
// store cannot keep exactly is not one we acknowledge.
function isStorableText(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    !value.includes('\u0000') &&
    (value as string & { isWellFormed(): boolean }).isWellFormed()
  );
}

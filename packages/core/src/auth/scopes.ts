import type { JWTPayload } from 'jose';
import { InvalidTokenError } from '../errors/bearer-errors';

/** The claims read for scopes when `scopeClaims` is not set: RFC 9068's `scope` and Okta's `scp`. */
export const DEFAULT_SCOPE_CLAIMS: readonly string[] = ['scope', 'scp'];

/**
 * Reads the scopes a token grants from the configured claims into one list. `scope` counts only as
 * one space-delimited string (RFC 8693 §4.2, RFC 9068 §2.2.3); every other claim (`scp`, Auth0's
 * `permissions`, Entra ID's `roles`) may also be a list of strings.
 *
 * @param payload - the verified claims
 * @param claims - which claims grant scopes
 * @returns the scopes, each once
 * @throws {@link InvalidTokenError} `claim_invalid` when a scope claim has another form
 * @example
 * ```ts
 * readScopes({ scope: 'plants:read plants:write' }, ['scope']); // ['plants:read', 'plants:write']
 * ```
 */
export function readScopes(payload: JWTPayload, claims: readonly string[]): string[] {
  const scopes = new Set<string>();
  for (const name of claims) {
    const claim = payload[name];
    if (claim === undefined) continue;
    const parts: unknown = typeof claim === 'string' ? claim.split(' ') : claim;
    const valid =
      Array.isArray(parts) &&
      (typeof claim === 'string' || name !== 'scope') &&
      parts.every((part) => typeof part === 'string');
    if (!valid) {
      throw new InvalidTokenError(
        'claim_invalid',
        name === 'scope'
          ? 'The scope claim is not a space-delimited string'
          : 'A scope claim is not a string or a list of strings',
      );
    }
    for (const part of parts) if (part !== '') scopes.add(part);
  }
  return [...scopes];
}

import { createHash } from 'node:crypto';

// Opaque tokens are short (oidc-provider's: 43 characters): kept as they are, they cost no hashing.
const LONGEST_KEPT = 128;

/**
 * The key an opaque token is cached and coalesced under: the token itself up to 128 characters, the
 * SHA-256 of a longer one (prefixed with `#`, which no RFC 6750 token holds, so a hash never names a
 * short token), so an entry holds at most 128 characters of key however long the tokens sent are.
 *
 * @param token - the token as sent
 * @returns its key
 * @example
 * ```ts
 * cacheKey('a'.repeat(2000)); // '#…' (44 characters)
 * ```
 */
export function cacheKey(token: string): string {
  if (token.length <= LONGEST_KEPT) return token;
  return `#${createHash('sha256').update(token).digest('base64url')}`;
}

import { InvalidTokenError } from '../../errors/bearer-errors';

/**
 * The token types accepted when `typ` is not set: RFC 9068's `at+jwt`, and, for the providers that
 * still issue their access tokens so (Keycloak, Entra ID, Auth0's default dialect), `JWT` or no `typ`
 * at all. Any other explicit type (`dpop+jwt`, `logout+jwt`, `secevent+jwt`, …) is a token made for
 * something else and is refused.
 */
export const DEFAULT_TOKEN_TYPES: readonly (string | undefined)[] = ['at+jwt', 'jwt', undefined];

/**
 * A media type as `typ` compares it: lower case, without the `application/` prefix RFC 7515 §4.1.9
 * lets a producer omit, so `application/AT+JWT` and `at+jwt` are one type.
 *
 * @param typ - a `typ` header value or an option
 * @returns the type to compare
 * @example
 * ```ts
 * normaliseTokenType('application/at+jwt'); // 'at+jwt'
 * ```
 */
export function normaliseTokenType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') && !lower.slice(12).includes('/')
    ? lower.slice(12)
    : lower;
}

/**
 * Checks a verified token's `typ` header against the accepted types (RFC 8725 §3.11, RFC 9068 §4),
 * so that an ID token or a logout token signed by the same keys is never taken for an access token.
 *
 * @param typ - the token's protected `typ` header, if any
 * @param accepted - normalised accepted types; `undefined` in the list accepts a token without `typ`
 * @throws {@link InvalidTokenError} `token_type_mismatch`
 * @example
 * ```ts
 * assertTokenType(protectedHeader.typ, ['at+jwt']);
 * ```
 */
export function assertTokenType(typ: unknown, accepted: readonly (string | undefined)[]): void {
  const found = typeof typ === 'string' ? normaliseTokenType(typ) : typ;
  if (!accepted.includes(found as string | undefined)) {
    throw new InvalidTokenError(
      'token_type_mismatch',
      'The token is not an access token of an accepted type',
    );
  }
}

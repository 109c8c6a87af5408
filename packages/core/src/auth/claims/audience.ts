import { InvalidTokenError } from '../../errors/bearer-errors';

/**
 * Checks that a token's `aud` (one string or a list of them, RFC 7519 §4.1.3, RFC 7662 §2.2) names
 * one of the accepted audiences. `jwtBearer` leaves this to jose's own `audience` check, which
 * answers the same code; introspection answers, and JWTs that `tokenIntrospection` hands to its
 * `jwt`, are checked here.
 *
 * @param claims - the token's claims, or an introspection answer
 * @param audiences - the accepted audiences; empty: not checked
 * @throws {@link InvalidTokenError} `audience_mismatch`
 * @example
 * ```ts
 * assertAudience({ aud: ['https://api.example.com/plants'] }, ['https://api.example.com/plants']);
 * ```
 */
export function assertAudience(
  claims: Readonly<Record<string, unknown>>,
  audiences: readonly string[],
): void {
  if (audiences.length === 0) return;
  const { aud } = claims;
  const list: unknown[] = Array.isArray(aud) ? aud : [aud];
  if (!list.some((item) => typeof item === 'string' && audiences.includes(item))) {
    throw new InvalidTokenError('audience_mismatch', 'The token is not for this audience');
  }
}

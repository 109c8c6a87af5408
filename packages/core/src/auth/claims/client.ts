import { InvalidTokenError } from '../../errors/bearer-errors';

/**
 * Checks the client a token was issued to, for providers whose access tokens name no audience: its
 * `client_id` (RFC 9068 §2.2, RFC 7662 §2.2, AWS Cognito), or its `azp` (OpenID Connect's authorized
 * party, Clerk) when it has no `client_id`. A token with `client_id` is judged by it alone, so an
 * `azp` beside it cannot vouch for another client. One rule for JWTs and introspection answers.
 *
 * @param claims - the verified claims, or an active introspection answer
 * @param clients - the accepted client ids; empty: not checked
 * @throws {@link InvalidTokenError} `claim_missing` without either claim, `client_mismatch` for a
 *   client not in the list
 * @example
 * ```ts
 * assertClient({ client_id: '4bt3p1c1ckn0ck' }, ['4bt3p1c1ckn0ck']); // passes
 * ```
 */
export function assertClient(
  claims: Readonly<Record<string, unknown>>,
  clients: readonly string[],
): void {
  if (clients.length === 0) return;
  const client = claims['client_id'] ?? claims['azp'];
  if (client === undefined) {
    throw new InvalidTokenError('claim_missing', 'The token names no client (client_id or azp)');
  }
  if (typeof client !== 'string' || !clients.includes(client)) {
    throw new InvalidTokenError('client_mismatch', 'The token was issued to another client');
  }
}

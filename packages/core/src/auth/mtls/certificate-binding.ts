import type { AuthRequest } from '../authenticator';
import type { Principal } from '../principal';
import { InvalidTokenError } from '../../errors/bearer-errors';
import { refusedWith } from '../refused-principal';

// The lengths are public (a thumbprint is 43 characters); the characters are compared in constant
// time (every one, with no early exit), so a client cannot learn a bound thumbprint character by
// character from the answer's timing. Plain JavaScript: it runs without node:crypto.
function sameThumbprint(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) {
    difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  }
  return difference === 0;
}

/**
 * Accepts a certificate-bound token only over a connection whose client certificate has the bound
 * thumbprint (RFC 8705 §3): the request's `clientCertificate`.
 *
 * @param x5t - the token's `cnf["x5t#S256"]`
 * @param request - the request, with its client certificate when it came with one
 * @param principal - the verified token's principal, carried by the refusal for the hooks
 * @throws InvalidTokenError `certificate_mismatch` without a certificate, or with another one
 * @example
 * ```ts
 * checkCertificateBinding(principal.claims.cnf['x5t#S256'], request, principal);
 * ```
 */
export function checkCertificateBinding(
  x5t: string,
  request: AuthRequest,
  principal: Principal,
): void {
  const certificate = request.clientCertificate;
  if (certificate === undefined) {
    const none = new InvalidTokenError(
      'certificate_mismatch',
      'The token is bound to a client certificate, and the request came without one',
    );
    throw refusedWith(none, principal);
  }
  if (!sameThumbprint(certificate.thumbprint, x5t)) {
    const other = new InvalidTokenError(
      'certificate_mismatch',
      'The token is bound to another client certificate than the one the request came with',
    );
    throw refusedWith(other, principal);
  }
}

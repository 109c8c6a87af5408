import { sha256Base64url } from '../../common/sha256';

// RFC 7638 §3.2: the required members of each key type, in lexicographic order.
const REQUIRED_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['crv', 'kty', 'x', 'y'],
  OKP: ['crv', 'kty', 'x'],
  RSA: ['e', 'kty', 'n'],
};

/**
 * The RFC 7638 SHA-256 thumbprint of a public JWK, in base64url: what an access token's `cnf.jkt`
 * names (RFC 9449 §6.1).
 *
 * @param jwk - the proof's `jwk` header
 * @returns the thumbprint, or `undefined` when the key type is not EC, OKP or RSA or a required
 *   member is not a string
 * @example
 * ```ts
 * await jwkThumbprint({ kty: 'EC', crv: 'P-256', x: '…', y: '…' }); // '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I'
 * ```
 */
export function jwkThumbprint(jwk: Readonly<Record<string, unknown>>): Promise<string> | undefined {
  const members = REQUIRED_MEMBERS[typeof jwk['kty'] === 'string' ? jwk['kty'] : ''];
  if (members === undefined) return undefined;
  const canonical: Record<string, string> = {};
  for (const member of members) {
    const value = jwk[member];
    if (typeof value !== 'string') return undefined;
    canonical[member] = value;
  }
  // JSON.stringify writes the members in insertion order, without whitespace: RFC 7638's form.
  return sha256Base64url(JSON.stringify(canonical));
}

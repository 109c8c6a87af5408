import { base64Bytes } from '../../common/base64';
import { requireNodeCrypto } from '../../common/node-builtin';

const PEM = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/u;

/**
 * The DER bytes of the first certificate in a PEM text.
 *
 * @param pem - a PEM certificate (`-----BEGIN CERTIFICATE-----` …)
 * @returns its DER bytes, or `undefined` when the text holds no certificate
 * @example
 * ```ts
 * const der = pemCertificateDer(readFileSync('client.pem', 'utf8'));
 * ```
 */
export function pemCertificateDer(pem: string): Uint8Array | undefined {
  const body = PEM.exec(pem)?.[1]?.replace(/\s+/gu, '');
  if (body === undefined || body === '') return undefined;
  return base64Bytes(body);
}

/**
 * The SHA-256 thumbprint of an X.509 certificate as RFC 8705 §3.1 puts it in a token's
 * `cnf["x5t#S256"]`: the base64url (no padding) of the SHA-256 of its DER encoding. The one function
 * the resource server, the testing kit and the tests use, so the three cannot disagree.
 *
 * @param certificate - the certificate's DER bytes, or a PEM text (its first certificate is used)
 * @returns the thumbprint, 43 characters
 * @throws TypeError when a text holds no PEM certificate, or on a runtime without node:crypto
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * const x5t = certificateThumbprint(readFileSync('client.pem', 'utf8'));
 * // a token bound to that certificate carries { cnf: { 'x5t#S256': x5t } }
 * ```
 */
export function certificateThumbprint(certificate: Uint8Array | string): string {
  const der = typeof certificate === 'string' ? pemCertificateDer(certificate) : certificate;
  if (der === undefined) {
    throw new TypeError(
      `certificateThumbprint: expected DER bytes or a PEM certificate; received a string of ${certificate.length} characters`,
    );
  }
  const { createHash } = requireNodeCrypto('certificateThumbprint', 'Node.js, Bun or Deno');
  return createHash('sha256').update(der).digest('base64url');
}

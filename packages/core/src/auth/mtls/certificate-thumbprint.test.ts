import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateThumbprint } from './certificate-thumbprint';
import { selfSignedCertificate } from './certificates.test-support';

const certificate = selfSignedCertificate('client-a');

describe('certificateThumbprint', () => {
  it('is the base64url SHA-256 of the DER, the fingerprint openssl and Node compute', () => {
    const hex = new X509Certificate(certificate.cert).fingerprint256.replaceAll(':', '');
    const expected = Buffer.from(hex, 'hex').toString('base64url');
    expect(certificateThumbprint(certificate.der)).toBe(expected);
    expect(expected).toHaveLength(43);
  });

  it('reads the same certificate from its PEM text', () => {
    expect(certificateThumbprint(certificate.cert)).toBe(certificateThumbprint(certificate.der));
    const crlf = certificate.cert.replaceAll('\n', '\r\n');
    expect(certificateThumbprint(`bag attributes\n${crlf}`)).toBe(
      certificateThumbprint(certificate.der),
    );
  });

  it('refuses a text that holds no PEM certificate, without echoing it', () => {
    expect(() => certificateThumbprint('not a certificate')).toThrow(
      new TypeError(
        'certificateThumbprint: expected DER bytes or a PEM certificate; received a string of 17 characters',
      ),
    );
  });
});

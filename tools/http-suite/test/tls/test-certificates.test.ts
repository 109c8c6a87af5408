import { createPrivateKey, X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testCertificates } from '../../src/tls/test-certificates';

describe('testCertificates', () => {
  it('signs the server and both client certificates with the CA, valid now', async () => {
    const { ca, server, client, other } = await testCertificates();
    const authority = new X509Certificate(ca.certPem);
    expect(authority.ca).toBe(true);
    for (const issued of [server, client, other]) {
      const certificate = new X509Certificate(issued.certPem);
      expect(certificate.checkIssued(authority)).toBe(true);
      expect(certificate.verify(authority.publicKey)).toBe(true);
      expect(new Date(certificate.validFrom).getTime()).toBeLessThan(Date.now());
      expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now());
      expect(Buffer.from(certificate.raw).equals(Buffer.from(issued.der))).toBe(true);
      expect(certificate.checkPrivateKey(createPrivateKey(issued.keyPem))).toBe(true);
    }
  });

  it('names 127.0.0.1 and localhost in the server certificate', async () => {
    const { server } = await testCertificates();
    expect(new X509Certificate(server.certPem).subjectAltName).toBe(
      'IP Address:127.0.0.1, DNS:localhost',
    );
  });

  it('makes the set once per process', async () => {
    const first = await testCertificates();
    const second = await testCertificates();
    expect(second).toBe(first);
    expect(first.client.der).not.toEqual(first.other.der);
  });
});

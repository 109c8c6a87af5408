import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A certificate made for one test run, with its private key. */
export interface TestCertificate {
  readonly key: string;
  readonly cert: string;
  readonly der: Uint8Array;
}

/**
 * A self-signed P-256 certificate for 127.0.0.1, made by openssl in a temporary folder: a client
 * certificate (RFC 8705 `self_signed_tls_client_auth`) or a server's own.
 *
 * @param commonName - its subject's CN
 * @returns the PEM key and certificate, and the certificate's DER
 */
export function selfSignedCertificate(commonName: string): TestCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-mtls-'));
  try {
    const keyFile = join(dir, 'key.pem');
    const certFile = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'],
        ...['-keyout', keyFile, '-out', certFile, '-subj', `/CN=${commonName}`, '-days', '1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(certFile, 'utf8');
    return { key: readFileSync(keyFile, 'utf8'), cert, der: new X509Certificate(cert).raw };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The certificate as a trusted proxy forwards it in RFC 9440's `Client-Cert`: its DER in base64
 * between colons.
 *
 * @param certificate - the certificate
 * @returns the header value
 */
export function clientCertHeader(certificate: TestCertificate): string {
  return `:${Buffer.from(certificate.der).toString('base64')}:`;
}

/**
 * What `jwtBearer` needs to verify the tokens of a local issuer.
 *
 * @param issuer - the testing kit's issuer
 * @returns its JWKS URL, issuer and audience
 */
export function issuerOptions(issuer: {
  readonly jwksUri: string;
  readonly issuer: string;
  readonly audience: string;
}): {
  jwksUri: string;
  issuer: string;
  audience: string;
} {
  return { jwksUri: issuer.jwksUri, issuer: issuer.issuer, audience: issuer.audience };
}

import type { webcrypto } from 'node:crypto';
import type * as X509Module from '@peculiar/x509';

/** One certificate of the test set: what TLS options take (PEM) and what a token binds (DER). */
export interface TestCertificate {
  /** The certificate, PEM. */
  readonly certPem: string;
  /** Its private key, PKCS#8 PEM. */
  readonly keyPem: string;
  /** The certificate, DER: what `idp.sign(claims, { certificate })` and `Client-Cert` take. */
  readonly der: Uint8Array;
}

/** The test set: one CA, a server certificate for 127.0.0.1 and localhost, two client certificates. */
export interface TestCertificates {
  /** The CA that signed the three others; hosts trust it for client certificates, clients for the server. */
  readonly ca: TestCertificate;
  /** The server's certificate, for `127.0.0.1` (SAN IP) and `localhost` (SAN DNS). */
  readonly server: TestCertificate;
  /** The client certificate tokens are bound to. */
  readonly client: TestCertificate;
  /** A second client certificate from the same CA: valid for TLS, but not the one a token is bound to. */
  readonly other: TestCertificate;
}

type X509 = typeof X509Module;

type KeyPair = webcrypto.CryptoKeyPair;

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDSA_SHA256 = { name: 'ECDSA', hash: 'SHA-256' } as const;
const HOUR = 3_600_000;

let generated: Promise<TestCertificates> | undefined;

/**
 * Makes, once per process, a CA and the server and client certificates it signs, in-process (ECDSA
 * P-256, valid from an hour ago for a day), for tests of mutual TLS and certificate-bound tokens.
 *
 * @returns the CA, the server certificate and the `client` and `other` client certificates
 * @example
 * const { ca, server, client } = await testCertificates();
 * https.createServer({ key: server.keyPem, cert: server.certPem, ca: ca.certPem, requestCert: true });
 * const token = await idp.sign({ sub: 'alice' }, { certificate: client.der });
 */
export function testCertificates(): Promise<TestCertificates> {
  generated ??= generate().catch((error: unknown) => {
    generated = undefined;
    throw error;
  });
  return generated;
}

async function generate(): Promise<TestCertificates> {
  // tsyringe, which @peculiar/x509 uses, needs the Reflect metadata API before it loads; loading both
  // here, not at import, keeps importing the kit free of global side effects.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(globalThis.crypto);

  const notBefore = new Date(Date.now() - HOUR);
  const notAfter = new Date(notBefore.getTime() + 24 * HOUR);
  const issue = (options: IssueOptions) =>
    issueCertificate(x509, { ...options, notBefore, notAfter });

  const ca = await issue({ name: 'CN=Plantstore Test CA', authority: true });
  const server = await issue({ name: 'CN=127.0.0.1', issuer: ca, server: true });
  const client = await issue({ name: 'CN=Plantstore Test Client', issuer: ca });
  const other = await issue({ name: 'CN=Plantstore Other Client', issuer: ca });
  return {
    ca: ca.certificate,
    server: server.certificate,
    client: client.certificate,
    other: other.certificate,
  };
}

interface IssueOptions {
  readonly name: string;
  /** The signer; absent, the certificate signs itself (the CA). */
  readonly issuer?: Issued;
  readonly authority?: boolean;
  readonly server?: boolean;
}

interface Issued {
  readonly name: string;
  readonly keys: KeyPair;
  readonly certificate: TestCertificate;
}

let serial = 0;

async function issueCertificate(
  x509: X509,
  options: IssueOptions & { readonly notBefore: Date; readonly notAfter: Date },
): Promise<Issued> {
  const keys = await globalThis.crypto.subtle.generateKey(EC_P256, true, ['sign', 'verify']);
  const signer = options.issuer?.keys ?? keys;
  serial += 1;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial.toString(16).padStart(2, '0'),
    subject: options.name,
    issuer: options.issuer?.name ?? options.name,
    notBefore: options.notBefore,
    notAfter: options.notAfter,
    signingAlgorithm: ECDSA_SHA256,
    publicKey: keys.publicKey,
    signingKey: signer.privateKey,
    extensions: await extensionsFor(x509, options, keys, signer),
  });
  const pkcs8 = await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    name: options.name,
    keys,
    certificate: {
      certPem: cert.toString('pem'),
      keyPem: x509.PemConverter.encode(pkcs8, 'PRIVATE KEY'),
      der: new Uint8Array(cert.rawData),
    },
  };
}

async function extensionsFor(
  x509: X509,
  options: IssueOptions,
  keys: KeyPair,
  signer: KeyPair,
): Promise<X509Module.Extension[]> {
  const { KeyUsageFlags: usage } = x509;
  const extensions: X509Module.Extension[] = [
    new x509.BasicConstraintsExtension(options.authority === true, undefined, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(signer.publicKey),
  ];
  if (options.authority === true) {
    extensions.push(new x509.KeyUsagesExtension(usage.keyCertSign | usage.cRLSign, true));
    return extensions;
  }
  extensions.push(new x509.KeyUsagesExtension(usage.digitalSignature, true));
  extensions.push(
    new x509.ExtendedKeyUsageExtension([
      options.server === true ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth,
    ]),
  );
  if (options.server === true) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'dns', value: 'localhost' },
      ]),
    );
  }
  return extensions;
}

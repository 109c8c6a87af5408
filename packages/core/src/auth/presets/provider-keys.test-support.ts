import { createHash, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import type { KeySetFixture, ProviderFixture, TokenFixture } from './provider-fixture.test-support';

/** The private keys made for one provider's key sets, by `kid`, and its documents with real keys. */
export interface ProviderKeys {
  /** Each key set's URL and its document, as served. */
  readonly documents: ReadonlyMap<string, string>;
  /** Signs a token of the fixture's formats with the key its header's `kid` names. */
  sign(token: TokenFixture): Promise<string>;
}

const TIME_CLAIMS = ['iat', 'nbf', 'exp', 'auth_time', 'rat'];

// A self-signed certificate of the key, as providers put in `x5c` (openssl, in a temporary folder).
function certificateOf(privateKey: KeyObject): X509Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-presets-'));
  try {
    const keyFile = join(dir, 'key.pem');
    writeFileSync(keyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const certFile = join(dir, 'cert.pem');
    const subject = ['-subj', '/CN=plantstore-presets-test', '-days', '1'];
    execFileSync('openssl', ['req', '-x509', '-key', keyFile, '-out', certFile, ...subject], {
      stdio: 'ignore',
    });
    return new X509Certificate(readFileSync(certFile));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// The provider's members with the test key's material and certificate in place of the placeholders.
function publishedKey(members: Readonly<Record<string, unknown>>, privateKey: KeyObject): object {
  const material = privateKey.export({ format: 'jwk' });
  const usesCertificate =
    Object.values(members).some((v) => String(v).includes('X5T')) || 'x5c' in members;
  const cert = usesCertificate ? certificateOf(privateKey) : undefined;
  const thumbprint = (hash: string): string =>
    createHash(hash)
      .update(cert?.raw ?? '')
      .digest('base64url');
  const placeholders: Record<string, unknown> = {
    CERT: cert?.raw.toString('base64'),
    X5T: thumbprint('sha1'),
    'X5T#S256': thumbprint('sha256'),
  };
  const fill = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map((item: unknown) => placeholders[String(item)] ?? item)
      : (placeholders[String(value)] ?? value);
  const filled = Object.entries(members).map(([name, value]): [string, unknown] => [
    name,
    fill(value),
  ]);
  const { kty, n, e, crv, x, y } = material;
  return { ...Object.fromEntries(filled), ...{ kty, n, e, crv, x, y } };
}

// RSA keys for `RSA` members (the provider's own `enc` keys too), P-256 for `EC` ones.
function keyFor(members: Readonly<Record<string, unknown>>): KeyObject {
  return members['kty'] === 'EC'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey
    : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

// A fixture's times are relative to now, so its tokens are valid (or expired) when the test runs.
function absoluteTimes(claims: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const entries = Object.entries(claims).filter(([, value]) => value !== null);
  return Object.fromEntries(
    entries.map(([name, value]) => [
      name,
      TIME_CLAIMS.includes(name) ? now + Number(value) : value,
    ]),
  );
}

/**
 * Makes the keys of a provider fixture and its key-set documents with them.
 *
 * @param fixture - the provider's key sets and, for HS256, its secret
 * @returns the documents to serve and a signer
 */
export function providerKeys(fixture: Pick<ProviderFixture, 'keySets' | 'secret'>): ProviderKeys {
  const byKid = new Map<unknown, KeyObject>();
  const document = (set: KeySetFixture): [string, string] => {
    const keys = set.keys.map((members) => {
      const key = byKid.get(members['kid']) ?? keyFor(members);
      byKid.set(members['kid'], key);
      return publishedKey(members, key);
    });
    return [set.url, JSON.stringify({ keys })];
  };
  const documents = new Map(fixture.keySets.map(document));
  return {
    documents,
    async sign({ header, claims }: TokenFixture): Promise<string> {
      const alg = String(header['alg']);
      const key =
        alg === 'HS256' ? new TextEncoder().encode(fixture.secret) : byKid.get(header['kid']);
      if (key === undefined) throw new Error(`no key published with kid ${String(header['kid'])}`);
      const members = Object.entries(header).filter(([, value]) => value !== null);
      const protectedHeader = { ...Object.fromEntries(members), alg };
      return new SignJWT(absoluteTimes(claims)).setProtectedHeader(protectedHeader).sign(key);
    },
  };
}

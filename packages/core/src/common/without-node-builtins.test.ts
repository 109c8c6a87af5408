import { createHash, createHmac, generateKeyPairSync } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { base64Bytes, base64url } from './base64';

// Each test loads the modules anew with `process.getBuiltinModule` answering nothing, as on workerd
// without nodejs_compat or on Vercel's Edge runtime, where the core must take WebCrypto's path or
// refuse at start-up what cannot work there.
describe('the core on a runtime without Node built-ins', () => {
  let getBuiltinModule: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    vi.resetModules();
    getBuiltinModule = vi.spyOn(process, 'getBuiltinModule').mockReturnValue(undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("hashes DPoP's values with WebCrypto to node:crypto's digests", async () => {
    const { hmacSha256Base64url, sha256Base64url } = await import('./sha256');
    const secret = new Uint8Array(32).fill(7);
    for (const text of ['', 'abc', 'ünïcödé 🌵', 'x'.repeat(10_000)]) {
      expect(await sha256Base64url(text)).toBe(
        createHash('sha256').update(text).digest('base64url'),
      );
      expect(await hmacSha256Base64url(secret, text)).toBe(
        createHmac('sha256', secret).update(text).digest('base64url'),
      );
    }
    expect(getBuiltinModule).toHaveBeenCalledWith('node:crypto');
  });

  it('refuses a PEM public key at start-up, naming what works instead', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const { jwtBearer } = await import('../auth/jwt/jwt-bearer');
    expect(() =>
      jwtBearer({ publicKey: pem, issuer: 'https://issuer.test/', audience: 'plants' }),
    ).toThrow(
      new TypeError(
        'jwtBearer: option "publicKey" as PEM needs node:crypto, which this runtime does not have ' +
          '(on Cloudflare Workers, turn on the nodejs_compat flag); use a CryptoKey ' +
          '(crypto.subtle.importKey) or a jwksUri instead',
      ),
    );
  });

  it('refuses clientCertificateHeader at start-up: the header must parse as X.509', async () => {
    const { createPlantService, jwtBearer, memoryStore } = await import('../index');
    const auth = jwtBearer({ secret: 's'.repeat(32), issuer: 'https://i.test/', audience: 'a' });
    expect(() =>
      createPlantService({ store: memoryStore(), auth, clientCertificateHeader: 'client-cert' }),
    ).toThrow(/^Plantstore: option "clientCertificateHeader" needs node:crypto/u);
  });
});

describe('base64 without Buffer', () => {
  it('encodes base64url without padding and decodes base64, as Buffer does', () => {
    for (const length of [0, 1, 2, 3, 31, 32, 33, 256]) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 37 + 251) % 256);
      expect(base64url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(base64Bytes(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
    }
  });
});

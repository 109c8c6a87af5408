import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthRequest } from '../authenticator';
import { jwtBearer } from '../jwt/jwt-bearer';

const request: AuthRequest = { method: 'POST', path: '/plants', headers: () => undefined };
const ISSUER = 'urn:test-issuer';
const AUDIENCE = 'urn:plants';

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' } };
}

function sign(key: SigningKey, header: { kid?: string } = { kid: key.kid }): Promise<string> {
  return new SignJWT({ sub: 'alice' })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', ...header })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(key.privateKey);
}

/** A JWKS endpoint on 127.0.0.1 whose answer each test sets, and how much of it went out. */
let serve: (response: ServerResponse) => void = (response) => response.end();
let bytesSent = 0;
const server: Server = createServer((_request, response) => serve(response));
const jwksUri = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
const serveKeys = (keys: readonly JWK[]) => {
  serve = (response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ keys }));
  };
};

beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const auth = (jwks: Record<string, number> = {}, cache = true) =>
  jwtBearer({
    jwksUri: jwksUri(),
    issuer: ISSUER,
    audience: AUDIENCE,
    jwks,
    ...(cache ? {} : { cache: false as const }),
  });

describe('the key set against a hostile or changing identity provider', () => {
  it('never keeps accepting a withdrawn key because a verification raced a refresh', async () => {
    const k1 = await signingKey('k1');
    for (let trial = 0; trial < 20; trial += 1) {
      const k2 = await signingKey(`k2-${trial}`);
      serveKeys([k1.jwk]);
      const verifier = auth({ cooldownMs: 0 });
      await verifier.ready();
      serveKeys([k2.jwk]);
      // The unknown kid refreshes the key set while the k1 token is being verified with the old one.
      const [unknownKid, withdrawn] = await Promise.all([sign(k2, { kid: 'nobody' }), sign(k1)]);
      await Promise.allSettled([
        verifier.verify(unknownKid, request),
        verifier.verify(withdrawn, request),
      ]);
      await expect(verifier.verify(withdrawn, request)).rejects.toMatchObject({
        status: 401,
        code: 'key_not_found',
      });
    }
  });

  it('tries a token without kid against three keys of its type at most', async () => {
    const keys = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((n) => signingKey(`k${n}`)));
    serveKeys(keys.map((key) => key.jwk));
    const verifier = auth();
    await expect(verifier.verify(await sign(keys[1]!, {}), request)).resolves.toMatchObject({
      subject: 'alice',
    });
    await expect(verifier.verify(await sign(keys[6]!, {}), request)).rejects.toMatchObject({
      status: 401,
      code: 'signature_invalid',
    });
  });

  it('refuses a key set of more than 100 keys as an outage (503), not a key source', async () => {
    const key = await signingKey('k1');
    serveKeys(Array.from({ length: 101 }, (_, n) => ({ ...key.jwk, kid: `k${n}` })));
    await expect(auth().verify(await sign(key), request)).rejects.toMatchObject({
      status: 503,
      code: 'jwks_unavailable',
    });
  });

  it.each([
    ['a 200 MB answer declared up front', true],
    ['an endless answer without a length', false],
  ])('stops reading %s at 1 MiB and answers 503', async (_case, declared) => {
    bytesSent = 0;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    serve = (response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        ...(declared ? { 'content-length': String(200 * 1024 * 1024) } : {}),
      });
      response.write('{"keys":[');
      const more = (): void => {
        while (!response.destroyed && bytesSent < 300 * 1024 * 1024) {
          bytesSent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
      };
      response.on('close', () => response.removeAllListeners('drain'));
      more();
    };
    const key = await signingKey('k1');
    const started = Date.now();
    await expect(auth().verify(await sign(key), request)).rejects.toMatchObject({
      status: 503,
      code: 'jwks_unavailable',
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    // What the server managed to write before the client hung up: socket buffers, not 200 MB.
    expect(bytesSent).toBeLessThan(32 * 1024 * 1024);
  });
});

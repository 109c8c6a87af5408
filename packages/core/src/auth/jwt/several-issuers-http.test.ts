import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from './jwt-bearer';
import { createNodeHandler } from '../../service/node-handler';
import { memoryStore } from '../../plant/memory-store';
import { createPlantService } from '../../service/service';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';

const SCOPE = 'plants:write';
const LEGACY_SECRET = 'the-legacy-issuer-shared-secret!!';

describe('a route with several issuers, over HTTP', () => {
  let tenantA: TokenIssuer;
  let tenantB: TokenIssuer;
  let server: Server;
  let url: string;
  const store = memoryStore();
  let nextId = 1;

  const post = async (token: string) => {
    const response = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: nextId++, name: 'Monstera' }),
    });
    return {
      status: response.status,
      challenge: response.headers.get('www-authenticate'),
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    };
  };

  beforeAll(async () => {
    [tenantA, tenantB] = await Promise.all([
      createTokenIssuer({ issuer: 'https://tenant-a.example/', audience: 'https://api.example' }),
      createTokenIssuer({
        algorithm: 'ES256',
        issuer: 'https://tenant-b.example/',
        audience: 'plants',
      }),
    ]);
    // Tenant B's 503 is the answer under test, not news for the terminal.
    const service = createPlantService({
      logger: false,
      store,
      auth: jwtBearer({
        issuers: [
          { issuer: tenantA.issuer, jwksUri: tenantA.jwksUri, audience: tenantA.audience },
          {
            issuer: tenantB.issuer,
            jwksUri: tenantB.jwksUri,
            audience: tenantB.audience,
            scopeClaims: ['permissions'],
            jwks: { retryAfter: 9 },
          },
          { issuer: 'legacy', secret: LEGACY_SECRET, audience: 'plants' },
        ],
        requiredScopes: [SCOPE],
      }),
    });
    server = createServer(createNodeHandler(service));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([tenantA.close(), tenantB.close()]);
  });

  it('creates plants with a token of each issuer', async () => {
    const legacy = await new SignJWT({ iss: 'legacy', aud: 'plants', sub: 'billing', scope: SCOPE })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5 min')
      .sign(new TextEncoder().encode(LEGACY_SECRET));
    for (const token of [
      await tenantA.sign({ scope: SCOPE }),
      await tenantB.sign({ permissions: [SCOPE] }),
      legacy,
    ]) {
      const reply = await post(token);
      expect(reply).toEqual({
        status: 200,
        challenge: null,
        retryAfter: null,
        body: '{"name":"Monstera"}',
      });
    }
  });

  it('answers a token of an unknown issuer 401 issuer_mismatch without fetching a key set', async () => {
    const before = [tenantA.requests, tenantB.requests];
    const reply = await post(
      await tenantA.sign({ scope: SCOPE, iss: 'https://tenant-c.example/' }),
    );
    expect(reply).toEqual({
      status: 401,
      challenge:
        'Bearer realm="plantstore", error="invalid_token", error_description="The token names no accepted issuer"',
      retryAfter: null,
      body: '{"error":401,"message":"The bearer token is not valid: The token names no accepted issuer"}',
    });
    expect([tenantA.requests, tenantB.requests]).toEqual(before);
  });

  it("answers 403 for a token of one tenant whose scope is in another tenant's claim", async () => {
    const reply = await post(await tenantB.sign({ scope: SCOPE }));
    expect(reply.status).toBe(403);
    expect(reply.challenge).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:write"',
    );
  });

  it("answers tenant B's tokens 503 while its key set cannot be fetched, and tenant A's 200", async () => {
    // Tenant B starts signing with a new key while its JWKS is down: its keys cannot be fetched anew.
    tenantB.outage('down');
    try {
      const down = await post(await tenantB.sign({ permissions: [SCOPE] }, { key: 'unpublished' }));
      expect(down.status).toBe(503);
      expect(down.retryAfter).toBe('9');
      expect(down.challenge).toBeNull();
      expect(down.body).toMatch(/^\{"error":503,"message":"[^"]+"\}$/);
      expect((await post(await tenantA.sign({ scope: SCOPE }))).status).toBe(200);
    } finally {
      tenantB.outage('none');
    }
  });
});

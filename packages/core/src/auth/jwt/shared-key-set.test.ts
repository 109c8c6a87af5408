import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthRequest } from '../authenticator';
import { jwtBearer, type JwtBearerJwksOptions } from './jwt-bearer';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';

const request: AuthRequest = { method: 'POST', path: '/plants', headers: () => undefined };
// Twenty tenants of one multi-tenant provider, all publishing their keys at one URL (as Entra ID's do).
const TENANTS = Array.from({ length: 20 }, (_, index) => `https://tenant-${index}.example/`);

/** How a verification ended: `accepted`, or the status and code it was refused with. */
const outcome = (verifying: Promise<unknown>): Promise<string> =>
  verifying.then(
    () => 'accepted',
    (error: { status?: number; code?: string }) => `${error.status} ${error.code}`,
  );

describe('several issuers on one JWKS URL', () => {
  let idp: TokenIssuer;
  const auth = (tenants: readonly string[]) =>
    jwtBearer({
      issuers: tenants.map((issuer) => ({ issuer, jwksUri: idp.jwksUri, audience: idp.audience })),
    });

  beforeAll(async () => {
    idp = await createTokenIssuer();
  });
  afterAll(() => idp.close());

  it('fetches it at most once a second for the whole provider, however many issuers name it', async () => {
    const plants = auth(TENANTS);
    const before = idp.requests;
    const started = Date.now();
    await plants.ready();
    const atReady = idp.requests - before;
    // Forged tokens naming every tenant, with a fresh `iat` and a `kid` the provider never published:
    // each may carry a key the provider has just started signing with, so each may refetch.
    let rounds = 0;
    while (Date.now() - started < 3_000) {
      const tokens = await Promise.all(
        TENANTS.map((iss) => idp.sign({ iss }, { key: 'unpublished' })),
      );
      const answers = await Promise.all(
        tokens.map((token) => outcome(plants.verify(token, request))),
      );
      expect(answers).toStrictEqual(TENANTS.map(() => '401 key_not_found'));
      rounds += 1;
    }
    const elapsed = Date.now() - started;
    const fetches = idp.requests - before;
    // One fetch at ready(), then at most one a second: the bound counts whole seconds of the run, so
    // a slow machine (fewer rounds, later fetches) only makes it looser.
    const bound = 1 + Math.ceil(elapsed / 1000);
    const total = fetches <= bound ? 'within the bound' : `${fetches} fetches in ${elapsed} ms`;
    expect({ atReady, total }).toStrictEqual({ atReady: 1, total: 'within the bound' });
    // The forged tokens did make it refetch: the bound is the key set's, not a lack of trying.
    expect(fetches).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeGreaterThanOrEqual(2);
  });

  it("empties the verified-token cache for every issuer when the shared set drops a key another issuer's token found", async () => {
    const [tenantA = '', tenantB = ''] = TENANTS;
    const plants = auth([tenantA, tenantB]);
    const oldKeyToken = await idp.sign({ iss: tenantA });
    expect(await outcome(plants.verify(oldKeyToken, request))).toBe('accepted');
    // Two rotations: the key of tenant A's token is withdrawn from the JWKS.
    await idp.rotate();
    await idp.rotate();
    // Tenant B's token of the new key makes the one key set refetch, and see the withdrawal.
    expect(await outcome(plants.verify(await idp.sign({ iss: tenantB }), request))).toBe(
      'accepted',
    );
    // Tenant A's token is neither answered from the cache nor verified with keys of its own.
    expect(await outcome(plants.verify(oldKeyToken, request))).toBe('401 key_not_found');
  });

  it('refuses at start-up two entries that give one JWKS URL different jwks options', () => {
    const sameUrlTwice = (jwksUri: string, jwks: JwtBearerJwksOptions) => () =>
      jwtBearer({
        issuers: [
          { issuer: 'https://a.example/', jwksUri: 'https://id.example.com/keys', audience: 'x' },
          { issuer: 'https://b.example/', jwksUri, audience: 'x', jwks },
        ],
      });
    // The same URL, spelt otherwise: one key set.
    expect(sameUrlTwice('https://ID.example.com:443/keys', { cooldownMs: 5_000 })).toThrow(
      new TypeError(
        'jwtBearer: option "issuers[1].jwks" must be the same as issuers[0].jwks: entries with one jwksUri share one key set; received cooldownMs 5000 against 30000',
      ),
    );
    // The same options, given or defaulted, are the same key set.
    expect(sameUrlTwice('https://id.example.com/keys', { cooldownMs: 30_000 })).not.toThrow();
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt/jwt-bearer';
import { createNodeHandler } from '../../service/node-handler';
import { memoryStore } from '../../plant/memory-store';
import { createPlantService } from '../../service/service';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';

describe('Retry-After while the JWKS is down and no keys are held, over HTTP', () => {
  let idp: TokenIssuer;
  let server: Server;
  let url: string;
  // The key set's clock, moved by hand: the back-off follows it, not the load of the machine.
  let time = Date.now();
  let nextId = 1;

  /** One create with a fresh token: the status, Retry-After and JWKS fetches so far, as one line. */
  const post = async (advanceMs: number): Promise<string> => {
    time += advanceMs;
    const response = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await idp.sign({ scope: 'plants:write' })}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ id: nextId++, name: 'Monstera' }),
    });
    await response.text();
    return `${response.status} ${response.headers.get('retry-after') ?? '-'} ${idp.requests}`;
  };

  beforeAll(async () => {
    idp = await createTokenIssuer();
    idp.outage('down');
    const auth = jwtBearer({
      jwksUri: idp.jwksUri,
      issuer: idp.issuer,
      audience: idp.audience,
      now: () => time,
      jwks: { cooldownMs: 30_000, retryAfter: 20 },
    });
    server = createServer(
      createNodeHandler(createPlantService({ logger: false, store: memoryStore(), auth })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await idp.close();
  });

  it('tells the time until the next fetch, rounded up, as the back-off grows up to jwks.retryAfter', async () => {
    // [ms the clock moves before the request, "status Retry-After fetches"]
    const steps: [number, string][] = [
      [0, '503 1 1'], // first failure: the next fetch may start 1 s later
      [400, '503 1 1'], // 600 ms left: no fetch, and 1 s rounded up
      [600, '503 2 2'], // second failure: 2 s
      [1_999, '503 1 2'], // 1 ms left
      [1, '503 4 3'],
      [2_500, '503 2 3'], // 1.5 s left
      [1_500, '503 8 4'],
      [8_000, '503 16 5'],
      [16_000, '503 20 6'], // the back-off reaches the 30 s cool-down: capped by retryAfter 20
      [20_000, '503 10 6'], // 10 s of the cool-down left
      [10_000, '503 20 7'],
    ];
    const replies: string[] = [];
    for (const [advanceMs] of steps) replies.push(await post(advanceMs));
    expect(replies).toStrictEqual(steps.map(([, reply]) => reply));

    idp.outage('none');
    expect(await post(29_999)).toBe('503 1 7');
    expect(await post(1)).toBe('200 - 8');
  });
});

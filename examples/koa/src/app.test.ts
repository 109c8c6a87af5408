import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from './app';

describe('the Koa example', () => {
  let idp: TokenIssuer;
  let server: Server;
  let base: string;
  const lines: string[] = [];

  beforeAll(async () => {
    idp = await createTokenIssuer();
    const plants = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
    });
    server = createApp({ plants, log: (line) => void lines.push(line) }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    lines.length = 0;
  });
  afterAll(async () => {
    server.close();
    server.closeAllConnections();
    await idp.close();
  });

  const create = async (body: string, token?: string): Promise<Response> =>
    fetch(`${base}/api/plants`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      },
      body,
    });

  it('creates a plant with an exact int64 id and logs who created it', async () => {
    const token = await idp.sign({ sub: 'gardener' });
    const response = await create(
      '{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}',
      token,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-response-time')).toMatch(/ms$/);
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    expect(lines).toEqual([expect.stringMatching(/^POST \/api\/plants 200 [\d.]+ms gardener$/)]);
  });

  it("answers a request without a token 401 itself, past the app's error handler", async () => {
    const response = await create('{"id": 1, "name": "Fern"}');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
    expect(await response.json()).toEqual({ error: 401, message: expect.any(String) as string });
    expect(lines).toEqual([expect.stringMatching(/^POST \/api\/plants 401 [\d.]+ms -$/)]);
  });

  it("keeps the app's own routes: health, its GET /api/plants, its parsed feedback and its 404", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ status: 'ok' });
    expect(await (await fetch(`${base}/api/plants`)).json()).toEqual([
      { name: 'Monstera', tag: 'aroid' },
      { name: 'Boston fern', tag: 'fern' },
    ]);
    const feedback = (body: string) =>
      fetch(`${base}/api/feedback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    expect((await feedback('{"message": "Lovely ferns"}')).status).toBe(202);
    const refused = await feedback('{}');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: 400, message: 'Send {"message": "…"}.' });
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
  });
});

import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, memoryStore, type MemoryStore } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';

describe('the Express example app', () => {
  let idp: TokenIssuer;
  let store: MemoryStore;
  let server: Server;
  let base: string;
  let token: string;
  const lines: string[] = [];

  beforeAll(async () => {
    idp = await createTokenIssuer();
    store = memoryStore();
    const plants = createPlantService({
      store,
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
    });
    server = createApp({ plants, log: (line) => void lines.push(line) }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    token = await idp.sign({ sub: 'developer' });
  });

  afterAll(async () => {
    server.close();
    server.closeAllConnections();
    await idp.close();
  });

  const create = (body: string, authorized = true) =>
    fetch(`${base}/api/plants`, {
      method: 'POST',
      headers: {
        ...(authorized ? { authorization: `Bearer ${token}` } : {}),
        'content-type': 'application/json',
      },
      body,
    });

  it('creates a plant with an exact int64 id at POST /api/plants', async () => {
    const response = await create('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    expect(store.get(9007199254740993n)).toMatchObject({
      id: 9007199254740993n,
      name: 'Monstera',
      tag: 'aroid',
    });
  });

  it('answers a replay 200 and the same id with other content 409', async () => {
    const body = '{"id": 7, "name": "Fern"}';
    expect((await create(body)).status).toBe(200);
    const replay = await create(body);
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe('{"name":"Fern"}');
    const conflict = await create('{"id": 7, "name": "Ivy"}');
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toEqual({ error: 409, message: expect.any(String) as string });
  });

  it('answers a request without a token 401 with a Bearer challenge', async () => {
    const response = await create('{"id": 8, "name": "Fern"}', false);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
  });

  it('logs who created a plant, from res.locals.plantstore', async () => {
    await create('{"id": 9, "name": "Logged"}');
    expect(lines).toContain('POST /api/plants 200 developer');
  });

  it("keeps the app's own routes: health, GET /api/plants and its JSON feedback route", async () => {
    const health = await fetch(`${base}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
    const list = await fetch(`${base}/api/plants`);
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual([
      { name: 'Monstera', tag: 'aroid' },
      { name: 'Boston fern', tag: 'fern' },
    ]);
    const feedback = await fetch(`${base}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message": "Lovely"}',
    });
    expect(feedback.status).toBe(202);
  });

  it("keeps the app's own 404 and error handlers", async () => {
    const missing = await fetch(`${base}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 404, message: 'Nothing at GET /nowhere.' });
    const badJson = await fetch(`${base}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ error: 400 });
  });

  it('serves the OpenAPI document of the route as mounted at /api', async () => {
    const response = await fetch(`${base}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(['/api/plants']);
  });
});

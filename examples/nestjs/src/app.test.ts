import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { NestExpressApplication } from '@nestjs/platform-express';
import {
  createPlantService,
  jwtBearer,
  memoryStore,
  type MemoryStore,
  type PlantService,
  type PlantServiceError,
} from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createApiDocument } from './api-document';
import { createNestApp } from './app';

describe('the NestJS example app', () => {
  let idp: TokenIssuer;
  let store: MemoryStore;
  let plants: PlantService;
  let app: NestExpressApplication;
  let base: string;
  let token: string;
  const rejected: PlantServiceError[] = [];

  beforeAll(async () => {
    idp = await createTokenIssuer();
    store = memoryStore();
    plants = createPlantService({
      store,
      auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
      onRejected: (error) => void rejected.push(error),
    });
    app = await createNestApp({ plants, logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
    token = await idp.sign({ sub: 'developer' });
  });

  afterAll(async () => {
    await app.close();
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

  it('creates a plant at POST /api/plants and keeps an id beyond 2^53 exact', async () => {
    const response = await create('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
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
    expect(store.get(7n)?.name).toBe('Fern');
  });

  it("answers duplicate keys 400 body_duplicate_key, and bad JSON in the route's own shape", async () => {
    const duplicate = await create('{"id": 8, "name": "a", "name": "b"}');
    expect(duplicate.status).toBe(400);
    expect(await duplicate.json()).toEqual({ error: 400, message: expect.any(String) as string });
    expect(rejected.at(-1)?.code).toBe('body_duplicate_key');
    const bad = await create('{"id": 8,');
    expect(bad.status).toBe(400);
    expect(rejected.at(-1)?.code).toBe('body_not_json');
    expect(store.get(8n)).toBeUndefined();
  });

  it('answers a request without a token 401 with a Bearer challenge', async () => {
    const response = await create('{"id": 9, "name": "Fern"}', false);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="plantstore"');
    expect(await response.json()).toEqual({ error: 401, message: expect.any(String) as string });
  });

  it("leaves the app's own Nest controllers and Nest's body parsing to Nest", async () => {
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
    expect([feedback.status, await feedback.json()]).toEqual([202, { received: true }]);
    const badJson = await fetch(`${base}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message":',
    });
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    const missing = await fetch(`${base}/nowhere`);
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { statusCode: 404, error: 'Not Found', message: 'Cannot GET /nowhere' },
    ]);
  });

  it('reports readiness at /health through the service', async () => {
    const health = await fetch(`${base}/health`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('closes the plants service when the app shuts down', async () => {
    const close = vi.spyOn(plants, 'close');
    await app.close();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('documents the plants route beside its controllers in its Swagger document', async () => {
    const document = createApiDocument(app);
    expect(document.openapi).toBe('3.0.0');
    // The app's own GET /api/plants and the route's POST share one path item.
    expect(Object.keys(document.paths['/api/plants'] ?? {})).toStrictEqual(['get', 'post']);
    expect(document.paths['/api/plants']?.post).toMatchObject({
      operationId: 'createPlant',
      security: [{ bearerAuth: [] }],
      requestBody: {
        content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } },
      },
    });
    expect(Object.keys(document.paths['/api/plants']?.post?.responses ?? {})).toHaveLength(10);
    expect(document.paths['/api/feedback']?.post).toBeDefined();
    expect(Object.keys(document.components?.securitySchemes ?? {})).toStrictEqual(['bearerAuth']);
    const result = await new Validator().validate(
      JSON.parse(JSON.stringify(document)) as object as Record<string, unknown>,
    );
    expect([result.valid, result.errors]).toStrictEqual([true, undefined]);
  });
});

describe('the NestJS example server', () => {
  it('closes the plants service on SIGTERM, through enableShutdownHooks()', async () => {
    const server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { ...process.env, PORT: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (chunk.includes('Plantstore in a NestJS app')) server.kill('SIGTERM');
    });
    const [code, signal] = (await once(server, 'exit')) as [number | null, string | null];
    expect(output).toContain('plants service closed on SIGTERM');
    // Nest re-raises the signal once the app is closed, so the process ends as SIGTERM asks.
    expect([code, signal]).toEqual([null, 'SIGTERM']);
  });
});

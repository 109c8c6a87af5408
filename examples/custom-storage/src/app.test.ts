import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlantService, jwtBearer, type PlantService } from '@plantstore/core';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from './app';
import { redisStore, type Redis } from './redis-store';
import { deleteKeys } from './redis-test-clients';
import { serviceUrl } from '@plantstore/core/testing';

const redisUrl =
  serviceUrl({ it }, 'REDIS_URL', 'the custom-storage app test', 'redis://127.0.0.1:6379') ?? '';

/** Serves the app on a free port of 127.0.0.1 with the Redis store on `client`. */
async function serve(idp: TokenIssuer, client: Redis, prefix: string, logger?: false) {
  const plants: PlantService = createPlantService({
    store: redisStore({ client, prefix }),
    auth: jwtBearer({ jwksUri: idp.jwksUri, issuer: idp.issuer, audience: idp.audience }),
    ...(logger === false ? { logger } : {}),
  });
  const server: Server = createApp(plants).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}

describe.skipIf(redisUrl === '')('the custom-storage example app on Redis', () => {
  const prefix = `plantstore-test:${randomUUID()}:`;
  let idp: TokenIssuer;
  let client: RedisClientType;
  let app: Awaited<ReturnType<typeof serve>>;
  let token: string;

  beforeAll(async () => {
    idp = await createTokenIssuer();
    client = createClient({ url: redisUrl });
    client.on('error', () => undefined);
    await client.connect();
    app = await serve(idp, client, prefix);
    token = await idp.sign({ sub: 'developer' });
  });

  afterAll(async () => {
    app.close();
    await deleteKeys(client, prefix);
    await Promise.all([client.close(), idp.close()]);
  });

  const create = (body: string) =>
    fetch(`${app.base}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });

  it('creates a plant through POST /plants and keeps it in Redis under its exact id', async () => {
    const response = await create('{"id": 9007199254740993, "name": "Monstera", "tag": "aroid"}');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"name":"Monstera","tag":"aroid"}');
    // Tenants are off (''), so the key is the prefix, ':' and the exact id; the value keeps the
    // plant and who created it.
    const stored = JSON.parse(
      (await client.get(`${prefix}:9007199254740993`)) ?? 'null',
    ) as unknown;
    expect(stored).toMatchObject({ name: 'Monstera', tag: 'aroid', tenant: '' });
  });

  it('answers a replay 200 and the same id with other content 409', async () => {
    expect((await create('{"id": 7, "name": "Fern"}')).status).toBe(200);
    const replay = await create('{"id": 7, "name": "Fern"}');
    expect(replay.status).toBe(200);
    expect(await replay.text()).toBe('{"name":"Fern"}');
    expect((await create('{"id": 7, "name": "Fern", "tag": "x"}')).status).toBe(409);
  });

  it('answers its readiness check 200 while Redis is up', async () => {
    const response = await fetch(`${app.base}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});

describe('the custom-storage example app without Redis', () => {
  it('answers POST /plants and its readiness check 503 while Redis is down', async () => {
    const idp = await createTokenIssuer();
    const client: Redis = createClient({ url: 'redis://127.0.0.1:1' }); // never connected
    const app = await serve(idp, client, 'unused:', false); // the provoked 503 would only print
    try {
      const response = await fetch(`${app.base}/plants`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await idp.sign()}`,
          'content-type': 'application/json',
        },
        body: '{"id": 1, "name": "Fern"}',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await fetch(`${app.base}/health`)).status).toBe(503);
    } finally {
      app.close();
      await idp.close();
    }
  });
});

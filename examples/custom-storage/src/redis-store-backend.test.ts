import { randomUUID } from 'node:crypto';
import { isPlantServiceError, type PlantStore, type Principal } from '@plantstore/core';
import { serviceUrl, storeRecord } from '@plantstore/core/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisStore } from './redis-store';
import { deleteKeys, expectWrongTypePassedThrough, offlineClient } from './redis-test-clients';

// What the conformance suite (./redis-store.test.ts) cannot know about this backend: how a plant
// looks in Redis, and how its failures reach the core.

const redisUrl =
  serviceUrl({ it }, 'REDIS_URL', 'the Redis store backend tests', 'redis://127.0.0.1:6379') ?? '';

const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
const context = () => ({ principal, signal: new AbortController().signal });

describe.skipIf(redisUrl === '')('redisStore on Redis', () => {
  let client: RedisClientType;
  const prefixes = new WeakMap<PlantStore, string>();

  /** A store on keys no other test or run uses. */
  const freshStore = (): PlantStore => {
    const prefix = `plantstore-test:${randomUUID()}:`;
    const store = redisStore({ client, prefix });
    prefixes.set(store, prefix);
    return store;
  };

  /** Deletes every key of the store's prefix. */
  const dropStore = (store: PlantStore) => deleteKeys(client, prefixes.get(store) ?? '');

  beforeAll(async () => {
    client = createClient({ url: redisUrl });
    client.on('error', () => undefined);
    await client.connect();
  });

  afterAll(() => client.close());

  it('keeps each plant under its tenant and exact decimal id, as JSON of the plant and its audit fields', async () => {
    const store = freshStore();
    try {
      await store.insert(storeRecord({ id: -(2n ** 63n), name: 'min' }), context());
      await store.insert(storeRecord({ id: 2n ** 63n - 1n, name: 'max', tag: 't' }), context());
      const prefix = prefixes.get(store) ?? '';
      const read = async (id: string): Promise<unknown> =>
        JSON.parse((await client.get(`${prefix}:${id}`)) ?? 'null');
      expect(await read('-9223372036854775808')).toMatchObject({ name: 'min', tenant: '' });
      expect(await read('9223372036854775807')).toMatchObject({ name: 'max', tag: 't' });
    } finally {
      await dropStore(store);
    }
  });

  it('passes a Redis error reply through unchanged, for the core to answer 500', async () => {
    const store = freshStore();
    try {
      await client.rPush(`${prefixes.get(store)}:1`, 'not a plant');
      await expectWrongTypePassedThrough(
        store.insert(storeRecord({ id: 1n, name: 'x' }), context()),
      );
    } finally {
      await dropStore(store);
    }
  });
});

describe('redisStore without a server', () => {
  it('rejects with store_unavailable (503) when Redis cannot be reached', async () => {
    const client = await offlineClient();
    const store = redisStore({ client });
    for (const attempt of [
      store.insert(storeRecord({ id: 1n, name: 'x' }), context()),
      store.ready?.(),
    ]) {
      const error: unknown = await attempt?.catch((e: unknown) => e);
      expect(isPlantServiceError(error) && error.status === 503 && error.code).toBe(
        'store_unavailable',
      );
    }
  });
});

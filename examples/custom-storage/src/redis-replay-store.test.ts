import { randomUUID } from 'node:crypto';
import { isPlantServiceError, type ReplayContext, type ReplayStore } from '@plantstore/core';
import { describeReplayStoreConformance, serviceUrl } from '@plantstore/core/testing';
import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReplayStore } from './redis-replay-store';
import { deleteKeys, expectWrongTypePassedThrough, offlineClient } from './redis-test-clients';

const redisUrl =
  serviceUrl({ it }, 'REDIS_URL', 'the Redis replay store suites', 'redis://127.0.0.1:6379') ?? '';

const T = Date.now();
const at = (now: number): ReplayContext => ({ now, signal: new AbortController().signal });

describe.skipIf(redisUrl === '')('redisReplayStore', () => {
  let client: RedisClientType;
  let other: RedisClientType;
  const prefixes = new WeakMap<ReplayStore, string>();

  /** A store on keys no other test or run uses. */
  const freshStore = (): ReplayStore => {
    const prefix = `plantstore-test:dpop:${randomUUID()}:`;
    const store = redisReplayStore({ client, prefix });
    prefixes.set(store, prefix);
    return store;
  };

  /** Deletes every key of the store's prefix. */
  const dropStore = (store: ReplayStore) => deleteKeys(client, prefixes.get(store) ?? '');

  beforeAll(async () => {
    client = createClient({ url: redisUrl });
    other = createClient({ url: redisUrl });
    for (const each of [client, other]) each.on('error', () => undefined);
    await Promise.all([client.connect(), other.connect()]);
  });

  afterAll(() => Promise.all([client.close(), other.close()]));

  describeReplayStoreConformance({ describe, it }, 'redisReplayStore (a Lua script)', {
    create: freshStore,
    destroy: dropStore,
    // Another instance of the service: its own connection, the same keys.
    createPeer: (store) => redisReplayStore({ client: other, prefix: prefixes.get(store) }),
  });

  it('holds expiresAt as the value, with a TTL of expiresAt - now for clean-up', async () => {
    const store = freshStore();
    try {
      expect(await store.remember('k', T + 60_000, at(T))).toBe(true);
      const key = `${prefixes.get(store)}k`;
      expect(await client.get(key)).toBe(String(T + 60_000));
      const ttl = await client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await dropStore(store);
    }
  });

  it('passes a Redis error reply through unchanged, for the service to answer 500', async () => {
    const store = freshStore();
    try {
      await client.rPush(`${prefixes.get(store)}k`, 'not a time');
      await expectWrongTypePassedThrough(store.remember('k', T + 1, at(T)));
    } finally {
      await dropStore(store);
    }
  });
});

describe('redisReplayStore without a server', () => {
  it('answers 503 replay_store_unavailable while Redis is unreachable', async () => {
    const offline = await offlineClient();
    const error: unknown = await redisReplayStore({ client: offline })
      .remember('k', T + 1, at(T))
      .catch((e: unknown) => e);
    expect(isPlantServiceError(error) && [error.status, error.code, error.headers]).toEqual([
      503,
      'replay_store_unavailable',
      { 'retry-after': '5' },
    ]);
  });
});

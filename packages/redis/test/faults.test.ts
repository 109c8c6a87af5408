import { storeRecord } from '@plantstore/core/testing';
import { isPlantServiceError } from '@plantstore/core';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReplayStore, redisStore } from '../src/index';
import { redisServerFor, until } from './cluster';
import { onlyOkOrRetry, plantPoster, SINGLE_CLIENTS, uniquePrefix, type Answer } from './services';
import { ownRedis, type OwnRedis } from './standalone';

const binary = redisServerFor('the Redis fault tests');
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const context = () => ({
  principal: { subject: 'gardener', scopes: [], claims: {} },
  signal: new AbortController().signal,
});

describe.skipIf(binary === undefined)('the Redis stores when Redis fails', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await ownRedis(binary ?? '');
    await redis.start();
  });
  afterAll(() => redis.stop());

  for (const [name, open] of Object.entries(SINGLE_CLIENTS)) {
    it(`answers 200 or 503 with Retry-After, never 500, while Redis is killed and restarted under load, and 200 within 5 s of its return (${name})`, async () => {
      const { client, close } = await open(redis.url);
      (client as { on?: (event: string, listener: () => void) => void }).on?.(
        'error',
        () => undefined,
      );
      const post = plantPoster(redisStore({ client, prefix: uniquePrefix('restart') }));
      const answers: Answer[] = [];
      let running = true;
      let next = 0n;
      const worker = async () => {
        while (running) answers.push(await post((next += 1n)));
      };
      const load = Promise.all(Array.from({ length: 20 }, worker));
      await delay(300);
      await redis.kill();
      await delay(1_000); // unreachable: refused connections
      await redis.start();
      const back = Date.now();
      await until(async () => (await post(10n ** 18n + (next += 1n))).status === 200, 5_000, '200');
      const recoveredMs = Date.now() - back;
      running = false;
      await load;
      await close();
      expect(onlyOkOrRetry(answers)).toBe(true);
      expect(recoveredMs).toBeLessThanOrEqual(5_000);
    }, 60_000);
  }

  it('answers 503 at once while Redis is down and the client queues nothing offline', async () => {
    const nodeRedis = createClient({ url: redis.url, disableOfflineQueue: true });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    const ioredis = new Redis(redis.url, { enableOfflineQueue: false, lazyConnect: true });
    ioredis.on('error', () => undefined);
    await ioredis.connect();
    await redis.kill();
    try {
      for (const client of [nodeRedis, ioredis]) {
        const attempts = [
          redisStore({ client }).insert(storeRecord({ id: 1n, name: 'x' }), context()),
          redisStore({ client }).ready(),
          redisReplayStore({ client }).remember('k', Date.now() + 1, {
            now: Date.now(),
            ...context(),
          }),
        ];
        for (const attempt of attempts) {
          const error: unknown = await attempt.catch((e: unknown) => e);
          expect(isPlantServiceError(error) && [error.status, error.headers]).toEqual([
            503,
            { 'retry-after': '5' },
          ]);
        }
      }
    } finally {
      nodeRedis.destroy();
      ioredis.disconnect();
      await redis.start();
    }
  });

  it('answers ready() 503 within 5 s while Redis is down and the client queues commands offline', async () => {
    // ioredis's defaults: it reconnects for ever and keeps the PING for when it is back.
    const ioredis = new Redis(redis.url, { lazyConnect: true });
    ioredis.on('error', () => undefined);
    await ioredis.connect();
    await redis.kill();
    try {
      for (const store of [
        redisStore({ client: ioredis }),
        redisReplayStore({ client: ioredis }),
      ]) {
        const since = Date.now();
        const error: unknown = await store.ready().catch((e: unknown) => e);
        expect(isPlantServiceError(error) && [error.status, error.headers]).toEqual([
          503,
          { 'retry-after': '5' },
        ]);
        expect(Date.now() - since).toBeLessThan(7_000);
      }
    } finally {
      ioredis.disconnect();
      await redis.start();
    }
  }, 30_000);
});

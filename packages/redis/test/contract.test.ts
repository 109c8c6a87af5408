import type { PlantStore } from '@plantstore/core';
import * as express from '@plantstore/express';
import { describeStoreContract } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe } from 'vitest';
import { redisStore } from '../src/index';
import { redisUrlFor, SINGLE_CLIENTS, uniquePrefix, type OpenClient } from './services';

const url = redisUrlFor('the HTTP contract on the Redis store');

// Every plant the suite creates is read back from its hash in Redis (see describeStoreContract), so the
// suite's byte-for-byte checks are checks of what Redis keeps.
describe.skipIf(url === undefined)('the HTTP contract with redisStore on Redis', () => {
  let redis: OpenClient | undefined;
  const prefixes: string[] = [];
  const open = SINGLE_CLIENTS['node-redis 6'];
  beforeAll(async () => {
    redis = await open?.(url ?? '');
  });
  afterAll(async () => {
    for (const prefix of prefixes) await redis?.drop(prefix);
    await redis?.close();
  });
  const freshStore = (): PlantStore => {
    if (redis === undefined) throw new Error('the client opens before the first test');
    prefixes.push(uniquePrefix('http'));
    return redisStore({ client: redis.client, prefix: prefixes.at(-1) });
  };

  describeStoreContract('Redis', { express }, async () => Promise.resolve(freshStore()));
});

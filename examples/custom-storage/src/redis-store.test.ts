import { randomUUID } from 'node:crypto';
import { describeStoreConformance } from '@plantstore/core/testing';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { redisStore } from './redis-store';

const client = createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' });
// A second connection, as another instance of the service has: the suite checks atomicity across both.
const peerClient = client.duplicate();
// Every key of this run starts with `run`; each test gets keys of its own below it.
const run = `plantstore-test:${randomUUID()}:`;
let tests = 0;
const prefixOfTest = () => `${run}${tests}:`;

beforeAll(async () => {
  await Promise.all([client.connect(), peerClient.connect()]);
});

afterAll(async () => {
  if (client.isReady) {
    // Delete this run's keys, and only those: never FLUSHDB a Redis that holds anything else.
    for await (const keys of client.scanIterator({ MATCH: `${run}*`, COUNT: 1000 })) {
      if (keys.length > 0) await client.del(keys);
    }
  }
  client.destroy(); // closes the connection, or stops the retries of one that was refused
  peerClient.destroy();
});

describeStoreConformance({ describe, it }, 'redisStore', {
  create: () => redisStore({ client, prefix: `${run}${(tests += 1)}:` }), // a fresh, empty store
  createPeer: () => redisStore({ client: peerClient, prefix: prefixOfTest() }), // same keys
});

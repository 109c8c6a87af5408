// The Redis of the Redis setups: a node-redis client on REDIS_URL and a key prefix of this run, whose
// keys are deleted when the server stops (SCAN, never FLUSHDB: the Redis may hold anything else).
import { randomUUID } from 'node:crypto';
import process from 'node:process';
import { createClient } from 'redis';

/** The connected client, the run's prefix, and `close()`. */
export async function openRedis() {
  const client = await createClient({
    url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  }).connect();
  const prefix = `bench:${randomUUID()}:`;
  return {
    client,
    prefix,
    async close() {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
        if (keys.length > 0) await client.del(keys);
      }
      await client.close();
    },
  };
}

import { randomUUID } from 'node:crypto';
import { serviceUrl } from '@plantstore/core/testing';
import { Redis } from 'ioredis';
import { createClient as createClient6 } from 'redis';
import { createClient as createClient5 } from 'redis5';
import { it } from 'vitest';
import type { RedisClient } from '../src/index';

/**
 * `REDIS_URL` for a suite of this package, or `undefined` to skip it (a failing test instead under
 * `PLANTSTORE_REQUIRE_SERVICES=1`, where it defaults to the machine's Redis).
 */
export function redisUrlFor(suite: string): string | undefined {
  const example = 'redis://127.0.0.1:6379';
  if (process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1') process.env['REDIS_URL'] ??= example;
  return serviceUrl({ it }, 'REDIS_URL', suite, example);
}

/** A connected client and how to close it. */
export interface OpenClient {
  readonly client: RedisClient;
  /** Deletes every key under `prefix` (SCAN, never FLUSHDB: the Redis is shared). */
  readonly drop: (prefix: string) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** The three clients a single server is tested with, each opened on `url`. */
export const SINGLE_CLIENTS: Readonly<Record<string, (url: string) => Promise<OpenClient>>> = {
  'node-redis 5': async (url) => nodeRedis(await createClient5({ url }).connect()),
  'node-redis 6': async (url) => nodeRedis(await createClient6({ url }).connect()),
  'ioredis 5': async (url) => {
    const client = new Redis(url, { lazyConnect: true });
    await client.connect();
    return {
      client,
      drop: async (prefix) => {
        const keys = await client.keys(`${prefix}*`);
        if (keys.length > 0) await client.del(...keys);
      },
      close: async () => void (await client.quit()),
    };
  },
};

interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

function nodeRedis(client: NodeRedisClient): OpenClient {
  return {
    client,
    drop: async (prefix) => {
      const keys = (await client.sendCommand(['KEYS', `${prefix}*`])) as string[];
      if (keys.length > 0) await client.sendCommand(['DEL', ...keys]);
    },
    close: () => client.close(),
  };
}

/** A key prefix no other test or run uses. */
export const uniquePrefix = (purpose: string): string =>
  `plantstore-test:${purpose}:${randomUUID()}:`;

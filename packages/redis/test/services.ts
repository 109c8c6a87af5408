import { randomUUID } from 'node:crypto';
import { createPlantService, type PlantStore, type Principal } from '@plantstore/core';
import { serviceUrl } from '@plantstore/core/testing';
import { Redis } from 'ioredis';
import { createClient as createClient6 } from 'redis';
import { createClient as createClient5 } from 'redis5';
import { afterAll, beforeAll, expect, it } from 'vitest';
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

const gardener: Principal = { subject: 'gardener', scopes: [], claims: {} };

/** One answer of the route, as the fault tests judge it. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
}

/**
 * A plant service on `store` in this process (store time-out 2 s, `Retry-After: 1`), as a function
 * that creates a plant of `id` and resolves to the answer's status and `Retry-After`.
 */
export function plantPoster(store: PlantStore, storeTimeout = 2_000) {
  const plants = createPlantService({
    store,
    storeTimeout,
    retryAfter: 1,
    auth: { verify: (token) => Promise.resolve(token === 'good' ? gardener : undefined) },
    // 503s are what these tests provoke; anything else is printed, with its cause.
    onError: (error) => {
      if (error.status !== 503) console.error(error);
    },
  });
  return async (id: bigint): Promise<Answer> => {
    const response = await plants.fetch(
      new Request('http://host/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body: `{"id":${id},"name":"fern 🌿"}`,
      }),
    );
    await response.arrayBuffer();
    return { status: response.status, retryAfter: response.headers.get('retry-after') };
  };
}

/** Whether every answer is a 200, or a 503 with `Retry-After: 1`: never a 500, never another. */
export const onlyOkOrRetry = (answers: readonly Answer[]): boolean =>
  answers.every(
    ({ status, retryAfter }) => status === 200 || (status === 503 && retryAfter === '1'),
  );

/** The start of the warning `redisStore` gives when the server may lose an acknowledged create. */
export const DURABILITY_WARNING =
  'plantstore: redisStore: Redis answers a create before the plant is safe on its disk: ';

/**
 * For a suite whose stores' `ready()` is called without the service's logger (the conformance
 * suites), so that the durability warning goes to `process.emitWarning`: collects those warnings
 * instead of printing them, asserts after the suite that each is the durability warning, and puts
 * Node's printers back. Any other warning is printed as usual.
 */
export function collectDurabilityWarnings(): void {
  const collected: Error[] = [];
  let printers: ((warning: Error) => void)[] = [];
  const onWarning = (warning: Error): void => {
    if ((warning as { code?: string }).code === 'PLANTSTORE_REDIS_DURABILITY') {
      collected.push(warning);
    } else {
      for (const printer of printers) printer(warning);
    }
  };
  beforeAll(() => {
    printers = process.listeners('warning');
    process.removeAllListeners('warning');
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a tick
    process.off('warning', onWarning);
    for (const printer of printers) process.on('warning', printer);
    for (const { message } of collected) {
      expect(message.slice(0, DURABILITY_WARNING.length)).toBe(DURABILITY_WARNING);
    }
  });
}

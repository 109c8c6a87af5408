import { createServer } from 'node:net';
import { isPlantServiceError } from '@plantstore/core';
import { createClient, type RedisClientType } from 'redis';
import { expect } from 'vitest';

/**
 * A port of 127.0.0.1 where nothing listens: it was free a moment ago.
 *
 * @returns the port
 */
export async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  return port;
}

/**
 * A client that could not connect: it was pointed at a port free a moment ago, and does not retry.
 *
 * @returns the client, its connect() already refused
 */
export async function offlineClient(): Promise<RedisClientType> {
  const port = await closedPort();
  const client: RedisClientType = createClient({
    url: `redis://127.0.0.1:${port}`,
    socket: { reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  await client.connect().then(
    () => Promise.reject(new Error(`a Redis answered on port ${port}, which was free`)),
    () => undefined,
  );
  return client;
}

/**
 * Deletes the keys under `prefix`, found by SCAN, and no others: the Redis may be shared.
 *
 * @param client - a connected client
 * @param prefix - the keys' prefix, not empty
 */
export async function deleteKeys(client: RedisClientType, prefix: string): Promise<void> {
  if (prefix === '') throw new Error('deleteKeys: an empty prefix would match every key');
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
}

/**
 * Expects a store call to fail with Redis's own error reply (a key of another type), passed through
 * unchanged: not a Plantstore error, so the service answers it 500 with the reply as the cause.
 *
 * @param attempt - the call, on a key that holds a list
 */
export async function expectWrongTypePassedThrough(attempt: Promise<unknown>): Promise<void> {
  const error: unknown = await attempt.catch((e: unknown) => e);
  expect(isPlantServiceError(error)).toBe(false);
  expect(String(error)).toMatch(/WRONGTYPE/);
}

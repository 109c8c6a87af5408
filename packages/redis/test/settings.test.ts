import { plantKey } from '../src/plant-key';
import { storeRecord } from '@plantstore/core/testing';
import { isPlantServiceError } from '@plantstore/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReplayStore, redisStore, type RedisClient } from '../src/index';
import {
  plantPoster,
  redisUrlFor,
  SINGLE_CLIENTS,
  uniquePrefix,
  type OpenClient,
} from './services';

const url = redisUrlFor('the Redis store settings tests');
const principal = { subject: 'gardener', scopes: [], claims: {} };
const context = (signal = new AbortController().signal) => ({ principal, signal });

describe('the Redis store factories', () => {
  const client = { sendCommand: () => Promise.resolve('OK') } as unknown as RedisClient;
  it.each([
    ['no options', undefined, 'option "options" must be an object; received undefined'],
    ['an unknown option', { client, table: 'x' }, 'unknown option "table"'],
    [
      'a misspelt option',
      { client, prefx: 'x' },
      'unknown option "prefx" (did you mean "prefix"?)',
    ],
    [
      'a client of no known kind',
      { client: {} },
      'option "client" must be a connected client of redis (createClient or createCluster) or ' +
        'ioredis (Redis or Cluster); received an instance of Object',
    ],
    [
      'a prefix with a brace',
      { client, prefix: 'a{b}:' },
      'option "prefix" must be a string without { or }; received a string of 5 characters',
    ],
    [
      'waitReplicas below 0',
      { client, waitReplicas: -1 },
      'option "waitReplicas" must be a whole number from 0 to 100; received -1',
    ],
    [
      'waitAof not a boolean',
      { client, waitAof: 'yes' },
      'option "waitAof" must be a boolean; received a string of 3 characters',
    ],
    [
      'waitReplicas not whole',
      { client, waitReplicas: 1.5 },
      'option "waitReplicas" must be a whole number from 0 to 100; received 1.5',
    ],
  ])('throw a TypeError for %s', (_case, options, message) => {
    expect(() => redisStore(options as never)).toThrow(new TypeError(`redisStore: ${message}`));
  });
  it('refuses waitReplicas on the replay store, which has no durability setting', () => {
    expect(() => redisReplayStore({ client, waitReplicas: 1 } as never)).toThrow(
      new TypeError('redisReplayStore: unknown option "waitReplicas"'),
    );
  });
});

describe.skipIf(url === undefined)('redisStore on one server', () => {
  let redis: OpenClient;
  const used: string[] = [];
  const prefix = () => {
    used.push(uniquePrefix('settings'));
    return used.at(-1) ?? '';
  };
  beforeAll(async () => {
    redis = await (SINGLE_CLIENTS['node-redis 6'] as (url: string) => Promise<OpenClient>)(
      url ?? '',
    );
  });
  afterAll(async () => {
    for (const each of used) await redis.drop(each);
    await redis.close();
  });
  const send = (args: string[]) =>
    (redis.client as { sendCommand(args: string[]): Promise<unknown> }).sendCommand(args);

  it('keeps each plant as a hash under its bucket, tenant and exact decimal id, with tag "" apart from no tag and the audit fields', async () => {
    const keys = prefix();
    const store = redisStore({ client: redis.client, prefix: keys });
    const createdAt = new Date('2026-01-02T03:04:05.678Z');
    await store.insert(storeRecord({ id: -(2n ** 63n), name: 'min' }, { createdAt }), context());
    await store.insert(
      storeRecord(
        { id: 2n ** 63n - 1n, name: 'max', tag: '' },
        { tenant: 'org-a', createdAt, tokenId: 'j-1', clientId: undefined },
      ),
      context(),
    );
    expect(plantKey(keys, 16, '', -(2n ** 63n))).toMatch(/^.*\{\d+\}:-9223372036854775808$/u);
    expect(await send(['HGETALL', plantKey(keys, 16, '', -(2n ** 63n))])).toEqual({
      name: 'min',
      tenant: '',
      by: 'conformance',
      client: 'conformance-client',
      at: '1767323045678',
    });
    expect(await send(['HGETALL', plantKey(keys, 16, 'org-a', 2n ** 63n - 1n)])).toEqual({
      name: 'max',
      tag: '',
      tenant: 'org-a',
      by: 'conformance',
      at: '1767323045678',
      jti: 'j-1',
    });
  });

  it('spreads the keys of one id in many tenants over the 16 buckets', () => {
    const tags = new Set(
      Array.from(
        { length: 200 },
        (_, n) => /\{(\d+)\}/u.exec(plantKey('p:', 16, `t${n}`, 5n))?.[1],
      ),
    );
    expect(tags.size).toBe(16);
  });

  it('sends nothing for an insert aborted before it is sent, and rejects with the abort reason', async () => {
    const keys = prefix();
    const controller = new AbortController();
    const reason = new Error('timed out');
    controller.abort(reason);
    const store = redisStore({ client: redis.client, prefix: keys });
    await expect(
      store.insert(storeRecord({ id: 1n, name: 'x' }), context(controller.signal)),
    ).rejects.toBe(reason);
    expect(await send(['EXISTS', plantKey(keys, 16, '', 1n)])).toBe(0);
  });

  it('passes a Redis error reply through unchanged (a key of another type), for the service to answer 500', async () => {
    const keys = prefix();
    await send(['RPUSH', plantKey(keys, 16, '', 1n), 'not a plant']);
    const error: unknown = await redisStore({ client: redis.client, prefix: keys })
      .insert(storeRecord({ id: 1n, name: 'x' }), context())
      .catch((e: unknown) => e);
    expect(isPlantServiceError(error)).toBe(false);
    expect(String(error)).toMatch(/WRONGTYPE/);
  });

  it('answers 503 with Retry-After when waitReplicas are not confirmed in time, and the plant then exists', async () => {
    const keys = prefix();
    const post = plantPoster(
      redisStore({ client: redis.client, prefix: keys, waitReplicas: 1 }),
      500,
    );
    expect(await post(7n)).toEqual({ status: 503, retryAfter: '1' });
    expect(await send(['HGET', plantKey(keys, 16, '', 7n), 'name'])).toBe('fern 🌿');
  });
});

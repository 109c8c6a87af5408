// Issue #50's crash test on Redis: a private redis-server (appendonly yes, appendfsync always) holds
// the plants, their events' outbox and the stream the relay delivers to. Under load, the app
// process is SIGKILLed, then the server (store and broker at once); every create acknowledged with
// a 200 must have its event in the stream at least once.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { createTokenIssuer, type TokenIssuer } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appKill, crashScenario, serverKill } from '../../src/events/crash-scenario';
import { redisStreamReader } from '../../src/events/delivery-log';
import { startPrivateRedis, type PrivateRedis } from '../../src/events/private-redis';

const hasRedisServer = await promisify(execFile)('redis-server', ['--version']).then(
  () => true,
  () => false,
);
const canRun = hasRedisServer || process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1';
if (!canRun) console.warn('Skipping the Redis event crash test: redis-server is not on the PATH.');

let redis: PrivateRedis;
let issuer: TokenIssuer;

beforeAll(async () => {
  if (!canRun) return;
  [redis, issuer] = await Promise.all([startPrivateRedis(), createTokenIssuer()]);
}, 60_000);
afterAll(async () => {
  await redis?.remove();
  await issuer?.close();
});

describe.skipIf(!canRun)(
  'every acknowledged create has its event delivered, through crashes',
  () => {
    it('Redis + Redis Streams: the app killed, then the server', async () => {
      const stream = `plants:events:${randomUUID().slice(0, 8)}`;
      const reader = await redisStreamReader(redis.url, stream);
      try {
        const report = await crashScenario(
          'Redis + Redis Streams',
          {
            store: { kind: 'redis', url: redis.url, prefix: `crash:${randomUUID().slice(0, 8)}:` },
            sink: { kind: 'redis-stream', url: redis.url, stream },
            issuer,
          },
          reader,
          (app) => [appKill(app), serverKill('Redis', redis)],
        );
        console.info(report.text);
        expect(report.lost).toEqual([]);
        expect(report.acknowledged).toBeGreaterThan(0);
      } finally {
        await reader.close();
      }
    }, 90_000);
  },
);

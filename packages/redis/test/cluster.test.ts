import { plantKey } from '../src/plant-key';
import {
  describeOutboxConformance,
  describeReplayStoreConformance,
  describeStoreConformance,
  storeRecord,
} from '@plantstore/core/testing';
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisReplayStore, redisStore, type RedisClient } from '../src/index';
import { redisServerFor, startCluster, until, type TestCluster } from './cluster';
import { onlyOkOrRetry, plantPoster, uniquePrefix, type Answer } from './services';

const server = redisServerFor('the Redis Cluster suites');

describe.skipIf(server === undefined)(
  'the Redis stores on a Cluster of 3 masters and 3 replicas',
  () => {
    let cluster: TestCluster;
    let ioredis: Cluster;
    let nodeRedis: ReturnType<typeof createCluster>;

    beforeAll(async () => {
      cluster = await startCluster(server ?? '');
      const nodes = cluster.ports.map((port) => ({ host: '127.0.0.1', port }));
      ioredis = new Cluster(nodes, { lazyConnect: true });
      await ioredis.connect();
      nodeRedis = createCluster({
        rootNodes: nodes.map(({ port }) => ({ url: `redis://127.0.0.1:${port}` })),
      });
      nodeRedis.on('error', () => undefined);
      await nodeRedis.connect();
    }, 90_000);

    afterAll(async () => {
      ioredis?.disconnect();
      await nodeRedis?.close().catch(() => undefined);
      await cluster?.stop();
    }, 30_000);

    const clients: [string, () => RedisClient][] = [
      ['an ioredis Cluster', () => ioredis],
      ['a node-redis 6 cluster', () => nodeRedis],
    ];
    for (const [name, client] of clients) {
      describeStoreConformance({ describe, it }, `redisStore on ${name}`, {
        create: () => redisStore({ client: client(), prefix: uniquePrefix('cluster') }),
      });
      // Every script of the outbox names keys of one slot: a Cluster refuses any other (CROSSSLOT).
      describeOutboxConformance({ describe, it }, `redisStore on ${name}`, {
        create: () => redisStore({ client: client(), prefix: uniquePrefix('cluster-events') }),
      });
      describeReplayStoreConformance({ describe, it }, `redisReplayStore on ${name}`, {
        create: () => redisReplayStore({ client: client(), prefix: uniquePrefix('cluster-dpop') }),
      });
    }

    it("acknowledges a create with waitReplicas: 1 once the slot master's replica has it", async () => {
      for (const [, client] of clients) {
        const store = redisStore({
          client: client(),
          prefix: uniquePrefix('wait'),
          waitReplicas: 1,
        });
        const context = {
          principal: { subject: 'gardener', scopes: [], claims: {} },
          signal: new AbortController().signal,
        };
        await expect(
          store.insert(storeRecord({ id: 2n ** 63n - 1n, name: 'max' }), context),
        ).resolves.toEqual({
          created: true,
        });
      }
    });

    it('answers 200 or 503 with Retry-After, never 500, while 300 slots migrate under load, and 200 within 5 s after', async (context) => {
      const [from, to] = await cluster.masters();
      if (from === undefined || to === undefined) throw new Error('the cluster has no two masters');
      const idOf = async (port: number) => (await cluster.cli(port, 'CLUSTER', 'MYID')).trim();
      const services = clients.map(([, client]) =>
        plantPoster(redisStore({ client: client(), prefix: 'reshard:' })),
      );
      let moving = true;
      const resharding = cluster
        .cli(
          from.port,
          '--cluster',
          'reshard',
          `127.0.0.1:${from.port}`,
          '--cluster-from',
          await idOf(from.port),
          '--cluster-to',
          await idOf(to.port),
          '--cluster-slots',
          '300',
          '--cluster-yes',
        )
        .finally(() => {
          moving = false;
        });
      const answers: { id: bigint; status: number; retryAfter: string | null }[] = [];
      let next = 0n;
      const load = async (post: (id: bigint) => Promise<Answer>) => {
        while (moving) {
          const id = (next += 1n) * 7_919n;
          answers.push({ id, ...(await post(id)) });
        }
      };
      await Promise.all([
        resharding,
        ...Array.from({ length: 40 }, (_, n) => load(services[n % 2] ?? services[0]!)),
      ]);
      const ended = Date.now();
      await until(
        async () => (await services[0]!(10n ** 18n + BigInt(Date.now()))).status === 200,
        5_000,
        '200 after the reshard',
      );
      expect(Date.now() - ended).toBeLessThan(5_000);

      expect(onlyOkOrRetry(answers)).toBe(true);
      const created = answers.filter(({ status }) => status === 200);
      const stored = await Promise.all(
        created.map(({ id }) => ioredis.hget(plantKey('reshard:', 16, '', BigInt(id)), 'name')),
      );
      expect(stored.filter((name) => name === null)).toEqual([]);
      await context.annotate(
        `[redis reshard] ${answers.length} creates while 300 slots moved: ${created.length} 200, ${answers.length - created.length} 503`,
      );
    }, 120_000);
  },
);

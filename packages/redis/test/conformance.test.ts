import {
  describeOutboxConformance,
  describeReplayStoreConformance,
  describeStoreConformance,
  silentStoreOn,
} from '@plantstore/core/testing';
import type { SilentStoreOptions } from '@plantstore/core/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { redisReplayStore, redisStore, type RedisReplayStore, type RedisStore } from '../src/index';
import {
  collectDurabilityWarnings,
  redisUrlFor,
  SINGLE_CLIENTS,
  uniquePrefix,
  type OpenClient,
} from './services';

const url = redisUrlFor('the Redis store conformance suites');

/**
 * The lifecycle's silent store: `build` on an ioredis client of the kit's silent server, whatever
 * the suite's client (the bound is the store's), disconnected after the case.
 */
function onSilentServer<S extends object>(build: (client: Redis) => S): SilentStoreOptions<S> {
  const open = ({ host, port }: { host: string; port: number }): Redis => {
    const client = new Redis({ host, port, enableReadyCheck: false, maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    return client;
  };
  return silentStoreOn(open, (client) => client.disconnect(), build);
}

for (const [name, open] of Object.entries(SINGLE_CLIENTS)) {
  describe.skipIf(url === undefined)(`the Redis stores on one server through ${name}`, () => {
    let one: OpenClient;
    let peer: OpenClient;
    const prefixes = new WeakMap<object, string>();
    const used: string[] = [];
    const fresh =
      <S extends object>(make: (prefix: string) => S) =>
      (): S => {
        const prefix = uniquePrefix('conformance');
        used.push(prefix);
        const store = make(prefix);
        prefixes.set(store, prefix);
        return store;
      };

    collectDurabilityWarnings();
    beforeAll(async () => {
      [one, peer] = await Promise.all([open(url ?? ''), open(url ?? '')]);
    });
    afterAll(async () => {
      for (const prefix of used) await one.drop(prefix);
      await Promise.all([one.close(), peer.close()]);
    });

    describeStoreConformance<RedisStore>({ describe, it }, `redisStore (${name})`, {
      create: fresh((prefix) => redisStore({ client: one.client, prefix })),
      // Another instance of the service: its own connection, the same keys.
      createPeer: (store) => redisStore({ client: peer.client, prefix: prefixes.get(store) }),
      silent: onSilentServer((client) => redisStore({ client, readyTimeout: 300 })),
    });
    describeOutboxConformance<RedisStore>({ describe, it }, `redisStore (${name})`, {
      create: fresh((prefix) => redisStore({ client: one.client, prefix })),
      createPeer: (store) => redisStore({ client: peer.client, prefix: prefixes.get(store) }),
    });
    describeReplayStoreConformance<RedisReplayStore>(
      { describe, it },
      `redisReplayStore (${name})`,
      {
        create: fresh((prefix) => redisReplayStore({ client: one.client, prefix })),
        // Another instance of the service: its own connection, the same keys.
        createPeer: (store) =>
          redisReplayStore({ client: peer.client, prefix: prefixes.get(store) }),
        silent: onSilentServer((client) => redisReplayStore({ client, readyTimeout: 300 })),
      },
    );
  });
}

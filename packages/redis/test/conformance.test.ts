import { describeReplayStoreConformance, describeStoreConformance } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { redisReplayStore, redisStore, type RedisReplayStore, type RedisStore } from '../src/index';
import { redisUrlFor, SINGLE_CLIENTS, uniquePrefix, type OpenClient } from './services';

const url = redisUrlFor('the Redis store conformance suites');

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
    });
    describeReplayStoreConformance<RedisReplayStore>(
      { describe, it },
      `redisReplayStore (${name})`,
      {
        create: fresh((prefix) => redisReplayStore({ client: one.client, prefix })),
        // Another instance of the service: its own connection, the same keys.
        createPeer: (store) =>
          redisReplayStore({ client: peer.client, prefix: prefixes.get(store) }),
      },
    );
  });
}

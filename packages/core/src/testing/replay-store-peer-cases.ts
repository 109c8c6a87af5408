import { strictEqual } from 'node:assert/strict';
import type { ReplayStore } from '../auth/dpop/replay-store';
import { at, type It, keyOf, MINUTE, type WithStore } from './replay-store-cases';
import { EXPIRED, NEW, ONCE, PEERS } from './replay-store-rules';

/**
 * Registers the cases of `describeReplayStoreConformance` on two instances of one backend: each sees
 * the keys the other remembered, under concurrency too.
 *
 * @param it - the runner's `it`
 * @param withStore - runs a test on a fresh store
 * @param createPeer - opens a second instance on the backend of a store
 */
export function describeReplayStorePeerCases<S extends ReplayStore>(
  it: It,
  withStore: WithStore<S>,
  createPeer: (store: S) => S | Promise<S>,
): void {
  const withPeers = (test: (one: S, two: S, start: number) => Promise<void>) =>
    withStore(async (store, start) => {
      const peer = await createPeer(store);
      try {
        await test(store, peer, start);
      } finally {
        await peer.close?.();
      }
    });

  it(
    'sees the keys another instance on the same backend remembered',
    withPeers(async (one, two, t) => {
      const [a, b] = [keyOf('peer a'), keyOf('peer b')];
      strictEqual(await one.remember(a, t + MINUTE, at(t)), true, NEW);
      strictEqual(await two.remember(a, t + MINUTE, at(t)), false, `${PEERS}: the peer saw no key`);
      strictEqual(await two.remember(b, t + MINUTE, at(t)), true, NEW);
      strictEqual(await one.remember(b, t + MINUTE, at(t)), false, `${PEERS}: the first saw none`);
      const later = t + 2 * MINUTE;
      strictEqual(await two.remember(a, later + MINUTE, at(later)), true, EXPIRED);
      strictEqual(
        await one.remember(a, later + MINUTE, at(later)),
        false,
        `${PEERS}: the key the peer renewed was not seen`,
      );
    }),
  );

  it(
    'answers each key true exactly once under concurrent calls split across two instances',
    withPeers(async (one, two, t) => {
      const keys = Array.from({ length: 50 }, (_, index) => keyOf(`split ${index}`));
      const calls = Array.from({ length: 400 }, (_, index) => ({
        key: keys[index % keys.length] ?? '',
        // Each key's calls alternate between the two instances.
        store: Math.floor(index / keys.length) % 2 === 0 ? one : two,
      }));
      const answers = await Promise.all(
        calls.map(({ key, store }) => store.remember(key, t + MINUTE, at(t))),
      );
      for (const key of keys) {
        const news = answers.filter((answer, index) => answer && calls[index]?.key === key);
        strictEqual(
          news.length,
          1,
          `${ONCE}, across instances too; this many calls with key ${key} resolved true`,
        );
      }
    }),
  );
}

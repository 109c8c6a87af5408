import type { ReplayStore } from '../auth/dpop/replay-store';
import { describeLifecycleCases, type SilentStoreOptions } from './lifecycle-cases';
import { at, describeReplayStoreCases, keyOf, MINUTE } from './replay-store-cases';
import { describeReplayStorePeerCases } from './replay-store-peer-cases';
import type { TestRegistrar } from './store-conformance';

/** How the suite gets the replay stores to test. */
export interface ReplayStoreConformanceOptions<S extends ReplayStore = ReplayStore> {
  /** Returns a fresh, empty store; called before every test. */
  readonly create: () => S | Promise<S>;
  /** Releases a store after its test (and forgets its keys, so the next test starts empty). */
  readonly destroy?: ((store: S) => void | Promise<void>) | undefined;
  /**
   * Returns a second store on the backend `store` uses, as another instance of the service would
   * open it (another Pool, another client). When given, the suite checks that each instance sees the
   * other's keys. The suite calls the peer's `close()` after the test, before `destroy(store)`.
   */
  readonly createPeer?: ((store: S) => S | Promise<S>) | undefined;
  /**
   * The time each test starts at, in epoch milliseconds. Default `Date.now`. The suite hands this
   * and later times to the store as `context.now`, minutes apart, and never waits for them.
   */
  readonly clock?: (() => number) | undefined;
  /**
   * Builds a store on the suite's silent server (it accepts connections and never answers), for the
   * case that `ready()` answers 503 within its bound. Leave it out for a store with no backend.
   */
  readonly silent?: SilentStoreOptions<S> | undefined;
}

/**
 * Registers the conformance suite of {@link ReplayStore} with your test runner: every replay store,
 * ours and yours, must pass it. Failures are `node:assert` errors, which every runner reports; each
 * one's message names the rule the store broke and how a store keeps it.
 *
 * What it checks: a new key answers `true` and the same key `false` while it is unexpired; keys are
 * told apart exactly (case, a last character, a trailing space; 128 ASCII characters kept whole);
 * expiry by the context's clock, `context.now`, never the store's own: a key whose `expiresAt` is not
 * after `now` is forgotten and can be remembered again, with its new expiry; exactly one `true` among
 * concurrent calls with one key, fresh or expired, and for each of many keys at once; and the abort
 * signal. With `createPeer`, it checks the same across two instances on one backend. The lifecycle
 * cases are the plant store suite's: `ready()` (bounded, given `silent`) and `close()`.
 *
 * The signal: a call whose signal has already fired must reject and remember nothing, as a
 * `PlantStore`'s insert does (the service has answered 503 by then, and a later proof must not be
 * refused for a key it never used). A call aborted under way may settle either way, but leaves the
 * key remembered or not, never in between.
 *
 * The suite moves `context.now` forward by minutes without sleeping, so a store must judge expiry
 * by `context.now` alone. A backend's own expiry (Redis `PX`, a DynamoDB TTL) may serve as clean-up
 * of keys already expired by that clock, never as the judge: a database clock ahead of the service's
 * would forget keys early, and their proofs could be replayed.
 *
 * @param runner - `{ describe, it }` of vitest (or jest, or node:test)
 * @param name - the store's name, for the report
 * @param options - how to create (and destroy) a fresh, empty store, and optionally a peer
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { describeReplayStoreConformance } from '@plantstore/core/testing';
 * describeReplayStoreConformance({ describe, it }, 'redis replay store', {
 *   create: () => redisReplayStore({ client, prefix: `test:${randomUUID()}:` }),
 *   createPeer: (store) => redisReplayStore({ client: otherClient, prefix: store.prefix }),
 * });
 * ```
 */
export function describeReplayStoreConformance<S extends ReplayStore>(
  runner: TestRegistrar,
  name: string,
  options: ReplayStoreConformanceOptions<S>,
): void {
  const { describe, it } = runner;
  const clock = options.clock ?? Date.now;
  describe(`ReplayStore conformance: ${name}`, () => {
    const withStore = (test: (store: S, start: number) => Promise<void>) => async () => {
      const store = await options.create();
      try {
        await test(store, clock());
      } finally {
        await options.destroy?.(store);
      }
    };

    describeReplayStoreCases(it, withStore);
    const remember = (store: S, n: number) =>
      store.remember(keyOf(`lifecycle ${n}`), clock() + MINUTE, at(clock()));
    describeLifecycleCases(
      it,
      { call: remember, unwritten: remember, wrote: true },
      {
        withStore: (test) => withStore((store) => test(store)),
        createPeer: options.createPeer,
        silent: options.silent,
      },
    );
    if (options.createPeer !== undefined) {
      describeReplayStorePeerCases(it, withStore, options.createPeer);
    }
  });
}

import { randomUUID } from 'node:crypto';
import { durableObjectReplayStore } from '@plantstore/cloudflare';
import { describeReplayStoreConformance } from '@plantstore/core/testing';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStoresWorker } from './support/stores-worker';
import { workerStores } from './support/worker-stores';
import type { RunningWorker } from './support/start-worker';

// The suite's 1,000 concurrent calls are 1,000 requests to the Worker: seconds, or tens of them on
// a busy 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let worker: RunningWorker;
let namespace: Awaited<ReturnType<Miniflare['getDurableObjectNamespace']>>;

beforeAll(async () => {
  worker = await startStoresWorker();
  namespace = await worker.miniflare.getDurableObjectNamespace('REPLAY');
}, 60_000);
afterAll(() => worker?.stop());

// The store runs in the Worker and the Durable Objects beside it, on workerd; each call of the
// suite is one request to the Worker. Each test's objects are new (their own prefix), so each starts
// empty. The peer is a second store on the same namespace and prefix, as a second isolate opens it.
const prefixes = new WeakMap<object, string>();
describeReplayStoreConformance(
  { describe, it },
  'durableObjectReplayStore in a Worker on miniflare',
  {
    create() {
      const prefix = `${randomUUID()}:`;
      const store = workerStores(worker.origin).replay(prefix);
      prefixes.set(store, prefix);
      return store;
    },
    createPeer: (store) => workerStores(worker.origin).replay(prefixes.get(store) ?? ''),
    destroy: (store) => store.close?.(),
    // A namespace is a binding, not a socket: the Worker builds this store on one that never answers.
    silent: {
      create: () => workerStores(worker.origin).replay(`${randomUUID()}:`, { silent: true }),
    },
  },
);

describe('durableObjectReplayStore', () => {
  it('refuses an unknown option at once, naming the one meant', () => {
    expect(() => durableObjectReplayStore({ client: namespace, shard: 4 } as never)).toThrow(
      new TypeError('durableObjectReplayStore: unknown option "shard" (did you mean "shards"?)'),
    );
  });

  it('refuses a shard count out of range, in the words of every option error', () => {
    expect(() => durableObjectReplayStore({ client: namespace, shards: 0 })).toThrow(
      new TypeError(
        'durableObjectReplayStore: option "shards" must be a whole number from 1 to 1024; received 0',
      ),
    );
  });
});

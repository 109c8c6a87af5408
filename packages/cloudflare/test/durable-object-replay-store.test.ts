import { randomUUID } from 'node:crypto';
import { durableObjectReplayStore } from '@plantstore/cloudflare';
import { describeReplayStoreConformance } from '@plantstore/core/testing';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStoresWorker } from './support/stores-worker';
import type { RunningWorker } from './support/start-worker';

// Each call crosses from this process to workerd through miniflare's binding proxy (a few round
// trips each), so the suites' 1,000 concurrent calls take tens of seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let worker: RunningWorker;
let namespace: Awaited<ReturnType<Miniflare['getDurableObjectNamespace']>>;

beforeAll(async () => {
  worker = await startStoresWorker();
  namespace = await worker.miniflare.getDurableObjectNamespace('REPLAY');
}, 60_000);
afterAll(() => worker?.stop());

// The store runs here and the Durable Objects on workerd; each test's objects are new (their own
// prefix), so each starts empty. The peer is a second store on the same namespace, as a second
// Worker isolate would open it.
const prefixes = new WeakMap<object, string>();
describeReplayStoreConformance({ describe, it }, 'durableObjectReplayStore on miniflare', {
  create() {
    const prefix = `${randomUUID()}:`;
    const store = durableObjectReplayStore(namespace, { prefix, shards: 4 });
    prefixes.set(store, prefix);
    return store;
  },
  createPeer: (store) =>
    durableObjectReplayStore(namespace, { prefix: prefixes.get(store) ?? '', shards: 4 }),
});

describe('durableObjectReplayStore', () => {
  it('refuses an unknown option at once, naming the ones it takes', () => {
    expect(() => durableObjectReplayStore(namespace, { shard: 4 } as never)).toThrow(
      new TypeError('durableObjectReplayStore: unknown option "shard" (expected shards, prefix)'),
    );
  });
});

import { d1Store } from '@plantstore/cloudflare';
import { describeStoreConformance } from '@plantstore/core/testing';
import type { D1Database } from '@cloudflare/workers-types/experimental';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStoresWorker } from './support/stores-worker';
import { workerStores } from './support/worker-stores';
import type { RunningWorker } from './support/start-worker';

// The suite's 1,000 concurrent inserts are 1,000 requests to the Worker: seconds, or tens of them on
// a busy 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let worker: RunningWorker;
let db: D1Database;

beforeAll(async () => {
  worker = await startStoresWorker();
  db = await worker.miniflare.getD1Database('DB');
  await d1Store(db).ensureSchema();
}, 60_000);
afterAll(() => worker?.stop());

// The store runs in the Worker, on workerd's D1 (miniflare's local SQLite); each call of the suite
// is one request to it. The table is emptied through the binding miniflare hands this process.
describeStoreConformance({ describe, it }, 'd1Store in a Worker on miniflare', {
  async create() {
    await db.prepare('DELETE FROM plants').run();
    return workerStores(worker.origin).d1;
  },
});

describe('d1Store', () => {
  it('stores ids past 2^53 as exact SQLite integers, not as text or rounded Numbers', async () => {
    await db.prepare('DELETE FROM plants').run();
    const store = d1Store(db);
    const principal = { subject: 'test', scopes: [], claims: {} };
    const context = { principal, signal: new AbortController().signal };
    for (const id of [9_007_199_254_740_993n, -9_223_372_036_854_775_808n]) {
      expect(await store.insert({ id, name: `plant ${id}` }, context)).toEqual({ created: true });
    }
    const { results } = await db
      .prepare(
        'SELECT typeof(id) AS type, CAST(id AS TEXT) AS id, id = 9007199254740993 AS exact FROM plants ORDER BY id',
      )
      .all();
    expect(results).toEqual([
      { type: 'integer', id: '-9223372036854775808', exact: 0 },
      { type: 'integer', id: '9007199254740993', exact: 1 },
    ]);
    // What D1 hands JavaScript for the same column read as it is: a Number, rounded.
    const rounded = await db.prepare('SELECT id FROM plants WHERE id > 0').first<{ id: number }>();
    expect(rounded?.id).toBe(9_007_199_254_740_992);
  });

  it('refuses what is not a D1 binding, at once', () => {
    expect(() => d1Store({} as D1Database)).toThrow(
      new TypeError(
        'd1Store: expected a D1 database binding (env.DB); received an object without prepare() and batch()',
      ),
    );
  });
});

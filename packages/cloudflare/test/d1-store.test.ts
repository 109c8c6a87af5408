import { d1Store } from '@plantstore/cloudflare';
import {
  describeOutboxConformance,
  describeStoreConformance,
  storeRecord,
} from '@plantstore/core/testing';
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
  await d1Store({ client: db }).ensureSchema();
}, 60_000);
afterAll(() => worker?.stop());

// The store runs in the Worker, on workerd's D1 (miniflare's local SQLite); each call of the suite
// is one request to it. The table is emptied through the binding miniflare hands this process.
describeStoreConformance({ describe, it }, 'd1Store in a Worker on miniflare', {
  async create() {
    await db.prepare('DELETE FROM plants').run();
    return workerStores(worker.origin).d1();
  },
  destroy: (store) => store.close?.(),
  // D1 is a binding, not a socket: the Worker builds this store on one that never answers.
  silent: { create: () => workerStores(worker.origin).d1({ silent: true }) },
});

// The outbox through the binding miniflare hands this process (workerd's D1 all the same): the
// relay's calls are not on the Worker's wire. A peer is a second store on the same database.
describeOutboxConformance({ describe, it }, 'd1Store on miniflare', {
  async create() {
    await db.batch(
      ['plants', 'plants_events', 'plants_events_lease'].map((table) =>
        db.prepare(`DELETE FROM ${table}`),
      ),
    );
    return d1Store({ client: db });
  },
  createPeer: () => d1Store({ client: db }),
  destroy: (store) => store.close(),
});

describe('d1Store', () => {
  it('stores ids past 2^53 as exact SQLite integers, not as text or rounded Numbers', async () => {
    await db.prepare('DELETE FROM plants').run();
    const store = d1Store({ client: db });
    const principal = { subject: 'test', scopes: [], claims: {} };
    const context = { principal, signal: new AbortController().signal };
    for (const id of [9_007_199_254_740_993n, -9_223_372_036_854_775_808n]) {
      expect(await store.insert(storeRecord({ id, name: `plant ${id}` }), context)).toEqual({
        created: true,
      });
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

  it('answers ready() 503 within its bound when D1 never answers, and refuses inserts after close()', async () => {
    const silent = {
      prepare: () => ({ bind: () => ({}) }),
      batch: () => new Promise<never>(() => undefined),
    } as unknown as D1Database;
    await expect(d1Store({ client: silent, readyTimeout: 50 }).ready()).rejects.toMatchObject({
      status: 503,
      code: 'store_unavailable',
      message: 'The D1 store did not answer within 0.05 s.',
    });
    await db.prepare('DELETE FROM plants').run();
    const store = d1Store({ client: db });
    await store.ready();
    const principal = { subject: 'test', scopes: [], claims: {} };
    const context = { principal, signal: new AbortController().signal };
    const inFlight = store.insert(storeRecord({ id: 1n, name: 'under way' }), context);
    await Promise.all([store.close(), store.close()]);
    expect(await inFlight).toEqual({ created: true });
    await expect(
      store.insert(storeRecord({ id: 2n, name: 'late' }), context),
    ).rejects.toMatchObject({
      status: 503,
      code: 'store_unavailable',
    });
    await expect(store.ready()).rejects.toMatchObject({ status: 503 });
    const { results } = await db.prepare('SELECT CAST(id AS TEXT) AS id FROM plants').all();
    expect(results).toEqual([{ id: '1' }]);
  });

  it('refuses in ensureSchema() a table of the schema before tenants, naming the migration', async () => {
    await db.prepare('DROP TABLE plants').run();
    await db
      .prepare(
        'CREATE TABLE plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT, created_by TEXT)',
      )
      .run();
    try {
      await expect(d1Store({ client: db }).ensureSchema()).rejects.toThrow(
        new Error(
          'd1Store: the table plants is of the schema before plants kept their tenant and owner ' +
            '(no tenant, client_id, created_at, token_id). Run the migration of ' +
            'docs/guides/upgrading.md ("Plants keep their owner and tenant") on it, then start again.',
        ),
      );
    } finally {
      await db.prepare('DROP TABLE plants').run();
      await d1Store({ client: db }).ensureSchema();
    }
  });

  it('refuses what is not a D1 binding, at once', () => {
    expect(() => d1Store({ client: {} as D1Database })).toThrow(
      new TypeError(
        'd1Store: expected a D1 database binding (env.DB) as client; received an object without prepare() and batch()',
      ),
    );
  });
});

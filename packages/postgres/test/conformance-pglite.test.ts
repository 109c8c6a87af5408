import { PGlite } from '@electric-sql/pglite';
import { isPlantServiceError, type Principal } from '@plantstore/core';
import { describeStoreConformance, storeRecord } from '@plantstore/core/testing';
import { describe, expect, it } from 'vitest';
import { postgresStore, type PostgresStore } from '../src/index';
import {
  acrossRestart,
  onSilentPglite,
  pglitesOfThisFile,
  recordingService,
  uniqueTable,
} from './services';

const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
const context = (signal = new AbortController().signal) => ({ principal, signal });
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const pglite = pglitesOfThisFile('plantstore-pglite-');

async function freshStore(db: PGlite): Promise<PostgresStore> {
  const store = postgresStore({ client: db, table: uniqueTable('pglite') });
  await store.ensureSchema();
  return store;
}

async function dropStore(db: PGlite, store: PostgresStore): Promise<void> {
  await store.close();
  await db.query(`DROP TABLE ${store.table}`);
}

/** Runs `test` on a fresh store in memory, and drops the store whatever happens. */
async function withStore(test: (store: PostgresStore) => Promise<void>): Promise<void> {
  const store = await freshStore(pglite.memory);
  try {
    await test(store);
  } finally {
    await dropStore(pglite.memory, store);
  }
}

describeStoreConformance({ describe, it }, 'postgresStore on PGlite in memory', {
  create: () => freshStore(pglite.memory),
  destroy: (store) => dropStore(pglite.memory, store),
  silent: onSilentPglite((client) => postgresStore({ client, readyTimeout: 300 })),
});

describeStoreConformance({ describe, it }, 'postgresStore on PGlite in a data directory', {
  create: () => freshStore(pglite.onDisk),
  destroy: (store) => dropStore(pglite.onDisk, store),
});

describe('postgresStore on PGlite', () => {
  it('keeps a plant across a restart on the same data directory', async () => {
    await acrossRestart(
      async (first) => {
        const before = postgresStore({ client: first });
        await before.ensureSchema();
        expect(
          await before.insert(
            storeRecord({ id: INT64_MAX, name: 'Monstera', tag: 'aroid' }),
            context(),
          ),
        ).toEqual({ created: true });
        await before.close();
      },
      async (second) => {
        const after = postgresStore({ client: second });
        await after.ensureSchema();
        const result = await after.insert(storeRecord({ id: INT64_MAX, name: 'other' }), context());
        expect(result).toMatchObject({
          created: false,
          existing: { id: INT64_MAX, name: 'Monstera', tag: 'aroid', createdBy: 'conformance' },
        });
        const { rows } = await second.query<{ id: string }>('SELECT id::text AS id FROM plants');
        expect(rows).toEqual([{ id: '9223372036854775807' }]);
      },
    );
    // Two PGlite starts: seconds of CPU each, far more on a shared, busy machine.
  }, 120_000);

  it('stores the extreme int64 ids exactly, as SQL sees them', async () => {
    await withStore(async (store) => {
      await store.insert(storeRecord({ id: INT64_MIN, name: 'min' }), context());
      await store.insert(storeRecord({ id: INT64_MAX, name: 'max' }), context());
      const { rows } = await pglite.memory.query<{ id: string; name: string }>(
        `SELECT id::text AS id, name FROM ${store.table} ORDER BY id`,
      );
      expect(rows).toEqual([
        { id: '-9223372036854775808', name: 'min' },
        { id: '9223372036854775807', name: 'max' },
      ]);
      const exact = await pglite.memory.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${store.table}
         WHERE id IN (-9223372036854775808, 9223372036854775807)`,
      );
      expect(exact.rows[0]?.n).toBe(2);
    });
  });

  it('records the tenant, who created the plant, through which client and token, when, and a missing tag as NULL', async () => {
    await withStore(async (store) => {
      const createdAt = new Date('2026-05-06T07:08:09.123Z');
      const audit = { tenant: 'org-a', createdBy: 'gardener', clientId: 'app', tokenId: 'j-7' };
      await store.insert(storeRecord({ id: 7n, name: 'Fern' }, { ...audit, createdAt }), context());
      const { rows } = await pglite.memory.query<Record<string, unknown>>(
        `SELECT tenant, tag, created_by, client_id, token_id, created_at FROM ${store.table}`,
      );
      expect(rows[0]).toMatchObject({
        tenant: 'org-a',
        tag: null,
        created_by: 'gardener',
        client_id: 'app',
        token_id: 'j-7',
        created_at: createdAt,
      });
    });
  });

  it('creates the schema idempotently', async () => {
    await withStore(async (store) => {
      await store.insert(storeRecord({ id: 1n, name: 'kept' }), context());
      await store.ensureSchema();
      await Promise.all([store.ensureSchema(), store.ensureSchema()]);
      const existing = await store.insert(storeRecord({ id: 1n, name: 'x' }), context());
      expect(existing).toMatchObject({ created: false, existing: { name: 'kept' } });
    });
  });

  it('writes nothing when the signal has already fired', async () => {
    await withStore(async (store) => {
      const controller = new AbortController();
      controller.abort(new Error('store time-out'));
      await expect(
        store.insert(storeRecord({ id: 5n, name: 'late' }), context(controller.signal)),
      ).rejects.toThrow('store time-out');
      const { rows } = await pglite.memory.query(`SELECT 1 FROM ${store.table}`);
      expect(rows).toHaveLength(0);
    });
  });

  it('rejects at once when aborted behind a long transaction, writes nothing, and the retry creates', async () => {
    const store = await freshStore(pglite.memory);
    try {
      const controller = new AbortController();
      let settledIn = -1;
      await pglite.memory.transaction(async (tx) => {
        const started = Date.now();
        // Handed to PGlite at once (the store has nothing else running): it waits for this transaction.
        const pending = store.insert(
          storeRecord({ id: 6n, name: 'queued', tag: 't' }),
          context(controller.signal),
        );
        await tx.query('SELECT 1');
        controller.abort(new Error('store time-out'));
        await expect(pending).rejects.toThrow('store time-out');
        settledIn = Date.now() - started;
      });
      expect(settledIn).toBeGreaterThanOrEqual(0);
      expect(settledIn).toBeLessThan(500);
      await store.close();
      const { rows } = await pglite.memory.query(`SELECT name, tag FROM ${store.table}`);
      expect(rows).toEqual([]);
      const again = postgresStore({ client: pglite.memory, table: store.table.slice(1, -1) });
      expect(
        await again.insert(storeRecord({ id: 6n, name: 'queued', tag: 't' }), context()),
      ).toEqual({
        created: true,
      });
    } finally {
      await pglite.memory.query(`DROP TABLE ${store.table}`);
    }
  });

  it('answers a 503 that leaves no row when PGlite is busy past the store time-out, and the retry creates', async () => {
    const store = await freshStore(pglite.onDisk);
    const { created, rejected, post } = recordingService(store, 200);
    try {
      let answer = 0;
      await pglite.onDisk.transaction(async (tx) => {
        answer = await post(1);
        await tx.query('SELECT 1');
      });
      expect(answer).toBe(503);
      expect(rejected).toEqual(['store_timeout']);
      // The retry has a time-out to spare: PGlite on disk runs on this worker's own thread, and a
      // busy machine can take longer than the 200 ms under test for a create that nothing blocks.
      const retry = recordingService(store, 10_000);
      expect(await retry.post(1)).toBe(200);
      expect([created, retry.created]).toEqual([[], [1n]]);
      const { rows } = await pglite.onDisk.query(`SELECT id::text AS id FROM ${store.table}`);
      expect(rows).toEqual([{ id: '1' }]);
    } finally {
      await dropStore(pglite.onDisk, store);
    }
  });

  it("never sends an insert aborted while it waits behind the store's other statements", async () => {
    await withStore(async (store) => {
      const controller = new AbortController();
      let first: Promise<unknown> = Promise.resolve();
      await pglite.memory.transaction(async (tx) => {
        // `first` is handed to PGlite and waits for the transaction; `second` waits behind it.
        first = store.insert(storeRecord({ id: 1n, name: 'first' }), context());
        const second = store.insert(
          storeRecord({ id: 2n, name: 'second' }),
          context(controller.signal),
        );
        await tx.query('SELECT 1');
        controller.abort(new Error('store time-out'));
        await expect(second).rejects.toThrow('store time-out');
      });
      await expect(first).resolves.toEqual({ created: true });
      const { rows } = await pglite.memory.query(`SELECT id::text AS id FROM ${store.table}`);
      expect(rows).toEqual([{ id: '1' }]);
    });
  });

  it('closes nothing it was given, and refuses inserts once closed with store_unavailable', async () => {
    const store = await freshStore(pglite.memory);
    await store.close();
    expect(pglite.memory.closed).toBe(false);
    await expect(pglite.memory.query('SELECT 1')).resolves.toBeDefined();
    const error: unknown = await store
      .insert(storeRecord({ id: 1n, name: 'x' }), context())
      .catch((e: unknown) => e);
    expect(isPlantServiceError(error) && error.code).toBe('store_unavailable');
    await pglite.memory.query(`DROP TABLE ${store.table}`);
  });

  it('answers ready() once PGlite is up, and store_unavailable once the host closed it', async () => {
    const db = new PGlite();
    // PGlite's own start first: on a busy machine it can pass ready()'s 5 s bound.
    await db.waitReady;
    const store = postgresStore({ client: db });
    await store.ready();
    await store.ensureSchema();
    await db.close();
    for (const attempt of [
      store.ready(),
      store.insert(storeRecord({ id: 1n, name: 'x' }), context()),
    ]) {
      const error: unknown = await attempt.catch((e: unknown) => e);
      expect(isPlantServiceError(error) && error.status === 503 && error.code).toBe(
        'store_unavailable',
      );
    }
    // A PGlite start: seconds of CPU, far more on a shared, busy machine.
  }, 120_000);

  it('passes other failures through unchanged, for the core to answer 500', async () => {
    const store = postgresStore({ client: pglite.memory, table: uniqueTable('missing') });
    const error: unknown = await store
      .insert(storeRecord({ id: 1n, name: 'x' }), context())
      .catch((e: unknown) => e);
    expect(isPlantServiceError(error)).toBe(false);
    expect(error).toMatchObject({ code: '42P01' });
  });
});

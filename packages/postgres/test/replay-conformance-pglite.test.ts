import { PGlite } from '@electric-sql/pglite';
import { isPlantServiceError, type ReplayContext } from '@plantstore/core';
import { describeReplayStoreConformance } from '@plantstore/core/testing';
import { describe, expect, it } from 'vitest';
import { postgresReplayStore, type PostgresReplayStore } from '../src/index';
import { acrossRestart, onSilentPglite, pglitesOfThisFile, uniqueTable } from './services';

const T = Date.UTC(2026, 0, 1);
const at = (now: number, signal = new AbortController().signal): ReplayContext => ({
  now,
  signal,
});

const pglite = pglitesOfThisFile('plantstore-replay-pglite-');
const names = new WeakMap<PostgresReplayStore, string>();

function freshStore(
  db: PGlite,
  options: { pruneEvery?: number; pruneLimit?: number } = {},
): PostgresReplayStore {
  const table = uniqueTable('replay_pglite');
  const store = postgresReplayStore({ client: db, table, ...options });
  names.set(store, table);
  return store;
}

async function dropStore(db: PGlite, store: PostgresReplayStore): Promise<void> {
  await store.close();
  await db.query(`DROP TABLE IF EXISTS ${store.table}`);
}

async function keysOf(db: PGlite, store: PostgresReplayStore): Promise<string[]> {
  const { rows } = await db.query<{ key: string }>(`SELECT key FROM ${store.table} ORDER BY key`);
  return rows.map((row) => row.key);
}

describeReplayStoreConformance({ describe, it }, 'postgresReplayStore on PGlite in memory', {
  create: () => freshStore(pglite.memory),
  destroy: (store) => dropStore(pglite.memory, store),
  createPeer: (store) => postgresReplayStore({ client: pglite.memory, table: names.get(store) }),
  silent: onSilentPglite((client) => postgresReplayStore({ client, readyTimeout: 300 })),
});

describeReplayStoreConformance(
  { describe, it },
  'postgresReplayStore on PGlite in a data directory',
  {
    create: () => freshStore(pglite.onDisk),
    destroy: (store) => dropStore(pglite.onDisk, store),
    createPeer: (store) => postgresReplayStore({ client: pglite.onDisk, table: names.get(store) }),
  },
);

describe('postgresReplayStore on PGlite', () => {
  it('creates its table on first use and keeps its keys across a restart', async () => {
    await acrossRestart(
      async (first) => {
        const before = postgresReplayStore({ client: first });
        expect(await before.remember('k', T + 60_000, at(T))).toBe(true);
        await before.close();
      },
      async (second) => {
        const after = postgresReplayStore({ client: second });
        await after.ready();
        expect(await after.remember('k', T + 60_000, at(T + 1))).toBe(false);
        const { rows } = await second.query(
          'SELECT key, expires_at::text AS expires_at FROM plantstore_dpop_replay',
        );
        expect(rows).toEqual([{ key: 'k', expires_at: String(T + 60_000) }]);
      },
    );
    // Two PGlite starts: seconds of CPU each, far more on a shared, busy machine.
  }, 120_000);

  it('prunes expired rows after every pruneEvery keys, and on demand', async () => {
    const store = freshStore(pglite.memory, { pruneEvery: 3, pruneLimit: 2 });
    try {
      await store.ensureSchema();
      for (const [key, expiresAt] of [
        ['old 1', T - 5],
        ['old 2', T - 4],
        ['old 3', T],
        ['kept', T + 1],
      ] as const) {
        await pglite.memory.query(`INSERT INTO ${store.table} VALUES ($1, $2)`, [key, expiresAt]);
      }
      for (const key of ['a', 'b', 'c']) {
        expect(await store.remember(key, T + 60_000, at(T))).toBe(true);
      }
      await store.close(); // waits for the prune the third key started: two rows at most
      expect(await keysOf(pglite.memory, store)).toEqual(['a', 'b', 'c', 'kept', 'old 3']);
      const again = postgresReplayStore({ client: pglite.memory, table: names.get(store) });
      expect(await again.prune(T)).toBe(1);
      expect(await keysOf(pglite.memory, store)).toEqual(['a', 'b', 'c', 'kept']);
    } finally {
      await dropStore(pglite.memory, store);
    }
  });

  it("never sends a call aborted while it waits behind the host's transaction", async () => {
    const store = freshStore(pglite.memory);
    try {
      await store.ensureSchema();
      const controller = new AbortController();
      await pglite.memory.transaction(async (tx) => {
        const pending = store.remember('k', T + 60_000, at(T, controller.signal));
        await tx.query('SELECT 1');
        controller.abort(new Error('replay check time-out'));
        await expect(pending).rejects.toThrow('replay check time-out');
      });
      await store.close();
      expect(await keysOf(pglite.memory, store)).toEqual([]);
    } finally {
      await dropStore(pglite.memory, store);
    }
  });

  it('answers 503 replay_store_unavailable once the host closed PGlite', async () => {
    const db = new PGlite();
    // PGlite's own start first: on a busy machine it can pass ready()'s 5 s bound, which is not
    // what this case is about.
    await db.waitReady;
    const store = postgresReplayStore({ client: db });
    await store.ready();
    await db.close();
    for (const attempt of [store.ready(), store.remember('k', T + 1, at(T))]) {
      const error: unknown = await attempt.catch((e: unknown) => e);
      expect(isPlantServiceError(error) && [error.status, error.code]).toEqual([
        503,
        'replay_store_unavailable',
      ]);
    }
    // A PGlite start: seconds of CPU, far more on a shared, busy machine.
  }, 120_000);
});

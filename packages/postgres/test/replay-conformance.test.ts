import { isPlantServiceError, type ReplayContext } from '@plantstore/core';
import { describeReplayStoreConformance } from '@plantstore/core/testing';
import { Client, Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresReplayStore, type PostgresReplayStore } from '../src/index';
import {
  databaseUrlFor,
  deadPool,
  lockTable,
  lockWaiters,
  onSilentPool,
  suiteDatabase,
  uniqueTable,
  waitFor,
} from './services';

const databaseUrl = databaseUrlFor('the PostgreSQL replay store suites');

const T = Date.UTC(2026, 0, 1);
const at = (now: number, signal = new AbortController().signal): ReplayContext => ({
  now,
  signal,
});

/** Resolves to what a rejection carries, as the service would answer it, or the error itself. */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  const error: unknown = await work.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  if (!isPlantServiceError(error)) return error;
  return { status: error.status, code: error.code, headers: error.headers, error };
}

describe.skipIf(databaseUrl === undefined)('postgresReplayStore on a PostgreSQL server', () => {
  const db = suiteDatabase(databaseUrl);
  const { tables, newPool } = db;
  const names = new WeakMap<PostgresReplayStore, string>();

  /** A store on a table no other test uses, which the store itself creates when it first needs it. */
  const freshStore = (
    client: Pool | Client = db.pool,
    options: { pruneEvery?: number; pruneLimit?: number } = {},
  ): PostgresReplayStore => {
    const table = uniqueTable('replay');
    tables.push(table);
    const store = postgresReplayStore({ client, table, ...options });
    names.set(store, table);
    return store;
  };

  const dropStore = async (store: PostgresReplayStore): Promise<void> => {
    await store.close();
    await db.pool.query(`DROP TABLE IF EXISTS ${store.table}`);
  };

  const rowsOf = async (store: PostgresReplayStore) => {
    const { rows } = await db.pool.query<{ key: string; expires_at: string }>(
      `SELECT key, expires_at::text AS expires_at FROM ${store.table} ORDER BY key`,
    );
    return rows;
  };

  /** Inserts rows directly: `[key, expiresAt]`. */
  const seed = async (store: PostgresReplayStore, rows: readonly [string, number][]) => {
    await store.ensureSchema();
    for (const [key, expiresAt] of rows) {
      await db.pool.query(`INSERT INTO ${store.table} (key, expires_at) VALUES ($1, $2)`, [
        key,
        expiresAt,
      ]);
    }
  };

  /** Pids of backends whose statement on the store's table waits for a lock. */
  const waiting = async (store: PostgresReplayStore, verb: 'INSERT' | 'WITH'): Promise<number[]> =>
    lockWaiters(db.pool, `${verb} % ${store.table} %`);

  describe('on pg Pools', () => {
    let second: Pool;
    beforeAll(() => {
      second = newPool({ max: 10 });
    });
    afterAll(() => second.end());

    describeReplayStoreConformance({ describe, it }, 'postgresReplayStore on a pg Pool', {
      create: () => freshStore(),
      destroy: dropStore,
      // Another instance of the service: its own Pool, the same table.
      createPeer: (store) => postgresReplayStore({ client: second, table: names.get(store) }),
      silent: onSilentPool((client) => postgresReplayStore({ client, readyTimeout: 300 })),
    });
  });

  describe('on single pg Clients', () => {
    let client: Client;
    let other: Client;
    beforeAll(async () => {
      client = new Client({ connectionString: databaseUrl });
      other = new Client({ connectionString: databaseUrl });
      await Promise.all([client.connect(), other.connect()]);
    });
    afterAll(() => Promise.all([client.end(), other.end()]));

    describeReplayStoreConformance({ describe, it }, 'postgresReplayStore on a pg Client', {
      create: () => freshStore(client),
      destroy: dropStore,
      createPeer: (store) => postgresReplayStore({ client: other, table: names.get(store) }),
    });
  });

  describe('the table', () => {
    it('is created by the first call that needs it, once for many calls at once', async () => {
      const store = freshStore();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => store.remember(`k${index % 5}`, T + 1, at(T))),
      );
      expect(answers.filter(Boolean)).toHaveLength(5);
      expect(await rowsOf(store)).toEqual(
        ['k0', 'k1', 'k2', 'k3', 'k4'].map((key) => ({ key, expires_at: String(T + 1) })),
      );
      await dropStore(store);
    });

    it('is created by ready(), and by several instances starting at once', async () => {
      const table = uniqueTable('replay_ready');
      tables.push(table);
      const stores = Array.from({ length: 6 }, () =>
        postgresReplayStore({ client: db.pool, table }),
      );
      await Promise.all(stores.map((store) => store.ready()));
      await Promise.all(stores.map((store) => store.ensureSchema()));
      const columns = await db.pool.query(
        `SELECT column_name, data_type, is_nullable, collation_name
         FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`,
        [table],
      );
      expect(columns.rows).toEqual([
        { column_name: 'key', data_type: 'text', is_nullable: 'NO', collation_name: 'C' },
        {
          column_name: 'expires_at',
          data_type: 'bigint',
          is_nullable: 'NO',
          collation_name: null,
        },
      ]);
      const indexes = await db.pool.query<{ indexname: string; indexdef: string }>(
        'SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 ORDER BY indexname',
        [table],
      );
      expect(indexes.rows.map((row) => row.indexname)).toEqual([
        `${table}_expires_at`,
        `${table}_pkey`,
      ]);
      expect(indexes.rows[0]?.indexdef).toMatch(/ USING btree \(expires_at\)$/);
      expect(indexes.rows[1]?.indexdef).toMatch(/^CREATE UNIQUE INDEX .* USING btree \(key\b/);
    });

    it('never fails ready() for losing the race to create it, in 30 races of 8', async () => {
      // PostgreSQL answers the loser 23505, 42P07 or, rarely, 42710 depending on the moment the
      // winner committed; one race seldom shows the rare one.
      for (let round = 0; round < 30; round += 1) {
        const table = uniqueTable('replay_race');
        tables.push(table);
        const stores = Array.from({ length: 8 }, () =>
          postgresReplayStore({ client: db.pool, table }),
        );
        await Promise.all(stores.map((store) => store.ready()));
      }
      // 240 schema steps (a table and its index each): about 3 s alone, past 20 s on a busy machine.
    }, 90_000);

    it('keeps expiresAt as the epoch milliseconds given, rounded up, and compares now rounded down', async () => {
      const store = freshStore();
      expect(await store.remember('a', T + 1_000, at(T))).toBe(true);
      expect(await store.remember('b', T + 1_000.2, at(T))).toBe(true);
      expect(await rowsOf(store)).toEqual([
        { key: 'a', expires_at: String(T + 1_000) },
        { key: 'b', expires_at: String(T + 1_001) },
      ]);
      // b expires at 1000.2: at 1000.9 it has, but the store keeps it the whole millisecond.
      expect(await store.remember('b', T + 5_000, at(T + 1_000.9))).toBe(false);
      expect(await store.remember('a', T + 5_000, at(T + 1_000.9))).toBe(true);
      await dropStore(store);
    });
  });

  describe('pruning', () => {
    it('deletes expired rows in the background after every pruneEvery keys', async () => {
      const store = freshStore(db.pool, { pruneEvery: 5 });
      await seed(store, [
        ...Array.from({ length: 20 }, (_, index): [string, number] => [`old ${index}`, T - index]),
        ['at now', T],
        ['kept', T + 1],
      ]);
      for (let index = 0; index < 4; index += 1) {
        expect(await store.remember(`new ${index}`, T + 60_000, at(T))).toBe(true);
      }
      expect(await rowsOf(store)).toHaveLength(26);
      expect(await store.remember('new 4', T + 60_000, at(T))).toBe(true);
      await store.close(); // waits for the prune the fifth key started
      expect((await rowsOf(store)).map((row) => row.key)).toEqual([
        'kept',
        'new 0',
        'new 1',
        'new 2',
        'new 3',
        'new 4',
      ]);
      await db.pool.query(`DROP TABLE ${store.table}`);
    });

    it('deletes at most pruneLimit rows at a time, and says how many', async () => {
      const store = freshStore(db.pool, { pruneLimit: 7 });
      await seed(store, [
        ...Array.from({ length: 20 }, (_, index): [string, number] => [`old ${index}`, T - 1]),
        ['kept', T + 1],
      ]);
      const deleted: number[] = [];
      for (let round = 0; round < 4; round += 1) deleted.push(await store.prune(T));
      expect(deleted).toEqual([7, 7, 6, 0]);
      expect(await rowsOf(store)).toEqual([{ key: 'kept', expires_at: String(T + 1) }]);
      await dropStore(store);
    });

    it('does not keep the call that starts a prune waiting, nor start a second one meanwhile', async () => {
      const store = freshStore(db.pool, { pruneEvery: 1 });
      await seed(store, [['old', T - 1]]);
      const locker = new Client({ connectionString: databaseUrl });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(`SELECT 1 FROM ${store.table} WHERE key = 'old' FOR UPDATE`);
        expect(await store.remember('first', T + 60_000, at(T))).toBe(true);
        await waitFor(async () => (await waiting(store, 'WITH')).length === 1, 'the prune');
        // The prune waits for the locked row; calls go on, and start no other prune.
        expect(await store.remember('second', T + 60_000, at(T))).toBe(true);
        expect(await store.remember('first', T + 60_000, at(T))).toBe(false);
        expect(await waiting(store, 'WITH')).toHaveLength(1);
      } finally {
        await locker.query('COMMIT');
        await locker.end();
      }
      await store.close();
      expect((await rowsOf(store)).map((row) => row.key)).toEqual(['first', 'second']);
      await db.pool.query(`DROP TABLE ${store.table}`);
    });

    it('leaves a row that was renewed while the prune waited for it', async () => {
      const store = freshStore(db.pool);
      await seed(store, [
        ['renewed', T - 1],
        ['old', T - 1],
      ]);
      const renewer = new Client({ connectionString: databaseUrl });
      await renewer.connect();
      let pruned: Promise<number> = Promise.resolve(-1);
      try {
        await renewer.query('BEGIN');
        await renewer.query(`SELECT 1 FROM ${store.table} WHERE key = 'renewed' FOR UPDATE`);
        pruned = store.prune(T);
        await waitFor(async () => (await waiting(store, 'WITH')).length === 1, 'the prune');
        await renewer.query(`UPDATE ${store.table} SET expires_at = $1 WHERE key = 'renewed'`, [
          T + 60_000,
        ]);
      } finally {
        await renewer.query('COMMIT');
        await renewer.end();
      }
      expect(await pruned).toBe(1);
      expect(await rowsOf(store)).toEqual([{ key: 'renewed', expires_at: String(T + 60_000) }]);
      await dropStore(store);
    });
  });

  describe('errors', () => {
    it('warns once when pruning fails for good (no DELETE privilege), and the calls go on', async () => {
      const store = freshStore();
      await seed(store, [['old', T - 1]]);
      const role = `plantstore_no_delete_${process.pid}`;
      await db.pool.query(`CREATE ROLE ${role} LOGIN`);
      await db.pool.query(`GRANT SELECT, INSERT, UPDATE ON ${store.table} TO ${role}`);
      const asRole = new URL(databaseUrl ?? '');
      asRole.username = role;
      const limited = new Pool({ connectionString: asRole.href, max: 2 });
      const warnings: Error[] = [];
      const onWarning = (warning: Error): void => {
        warnings.push(warning);
      };
      // Node prints every process warning to stderr; this one is expected, so Node's printer is
      // set aside while the test reads it, and put back after.
      const printers = process.listeners('warning');
      process.removeAllListeners('warning');
      process.on('warning', onWarning);
      try {
        const restricted = postgresReplayStore({
          client: limited,
          table: names.get(store),
          pruneEvery: 1,
        });
        for (const key of ['a', 'b', 'c']) {
          expect(await restricted.remember(key, T + 60_000, at(T))).toBe(true);
        }
        await restricted.close();
        await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on a tick
        expect(
          warnings
            .filter(
              (warning) => (warning as { code?: string }).code === 'PLANTSTORE_REPLAY_PRUNE_FAILED',
            )
            .map((warning) => warning.message),
        ).toEqual([
          `postgresReplayStore: pruning expired rows of ${store.table} failed ` +
            `(error: permission denied for table ${names.get(store)}); it is retried, and the ` +
            'table grows until it succeeds.',
        ]);
        expect((await rowsOf(store)).map((row) => row.key)).toEqual(['a', 'b', 'c', 'old']);
      } finally {
        process.off('warning', onWarning);
        for (const printer of printers) process.on('warning', printer);
        await limited.end();
        await dropStore(store);
        await db.pool.query(`DROP ROLE ${role}`);
      }
    });

    it('answers 503 replay_store_unavailable with Retry-After when the server is gone', async () => {
      const dead = await deadPool();
      try {
        const store = postgresReplayStore({ client: dead });
        for (const attempt of [
          store.remember('k', T + 1, at(T)),
          store.ready(),
          store.ensureSchema(),
          store.prune(T),
        ]) {
          const failure = await failureOf(attempt);
          expect(failure).toMatchObject({
            status: 503,
            code: 'replay_store_unavailable',
            headers: { 'retry-after': '5' },
          });
          const cause = (failure as { error: Error }).error.cause;
          expect(JSON.stringify(cause, ['code', 'errors'])).toContain('ECONNREFUSED');
        }
      } finally {
        await dead.end();
      }
    });

    it('answers 503 replay_store_unavailable when a statement_timeout stops the statement', async () => {
      // Only the statement under test runs with the 200 ms limit: the table is made and read back on
      // the normal pool, whose DDL can take longer than that on a loaded machine.
      const store = freshStore();
      await store.ensureSchema();
      const slow = newPool({ statement_timeout: 200 });
      const limited = postgresReplayStore({ client: slow, table: names.get(store) });
      const lock = await lockTable(databaseUrl ?? '', store.table);
      try {
        const failure = await failureOf(limited.remember('k', T + 1, at(T)));
        expect(failure).toMatchObject({ status: 503, code: 'replay_store_unavailable' });
        expect((failure as { error: Error }).error.cause).toMatchObject({ code: '57014' });
      } finally {
        await lock.release();
        await limited.close();
        await slow.end();
      }
      expect(await store.remember('k', T + 1, at(T))).toBe(true);
      await dropStore(store);
    });

    it('answers 503 once closed, and closes nothing it was given', async () => {
      const store = freshStore();
      expect(await store.remember('k', T + 1, at(T))).toBe(true);
      await store.close();
      expect(await failureOf(store.remember('k2', T + 1, at(T)))).toMatchObject({
        status: 503,
        code: 'replay_store_unavailable',
      });
      expect(await failureOf(store.ready())).toMatchObject({ code: 'replay_store_unavailable' });
      expect((await db.pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      await db.pool.query(`DROP TABLE ${store.table}`);
    });

    it('passes any other failure through unchanged, for the service to answer 500', async () => {
      // The schema does not exist: the table is missing (42P01), and creating it fails (3F000).
      const store = postgresReplayStore({ client: db.pool, table: 'no_such_schema.replay' });
      const error = await failureOf(store.remember('k', T + 1, at(T)));
      expect(isPlantServiceError(error)).toBe(false);
      expect(error).toMatchObject({ code: '3F000' });
    });
  });

  describe('the abort signal', () => {
    it('sends nothing when the signal has already fired', async () => {
      const store = freshStore();
      const controller = new AbortController();
      controller.abort(new Error('replay check time-out'));
      await expect(store.remember('k', T + 1, at(T, controller.signal))).rejects.toThrow(
        'replay check time-out',
      );
      const { rows } = await db.pool.query<{ exists: boolean }>(
        'SELECT to_regclass($1) IS NOT NULL AS exists',
        [store.table],
      );
      expect(rows).toEqual([{ exists: false }]);
    });

    it('cancels a blocked statement when aborted, so the key is not remembered', async () => {
      const store = freshStore();
      await store.ensureSchema();
      const lock = await lockTable(databaseUrl ?? '', store.table);
      try {
        const controller = new AbortController();
        const pending = store.remember('k', T + 1, at(T, controller.signal));
        await waitFor(async () => (await waiting(store, 'INSERT')).length === 1, 'the insert');
        controller.abort(new Error('replay check time-out'));
        await expect(pending).rejects.toThrow('replay check time-out');
        // Cancelled while the lock is still held: it did not simply finish once the lock went.
        await waitFor(async () => (await waiting(store, 'INSERT')).length === 0, 'the cancel');
      } finally {
        await lock.release();
      }
      expect(await rowsOf(store)).toEqual([]);
      expect(await store.remember('k', T + 1, at(T))).toBe(true);
      await dropStore(store);
    });
  });
});

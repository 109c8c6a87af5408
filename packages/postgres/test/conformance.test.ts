import { createPlantService, isPlantServiceError } from '@plantstore/core';
import { describeStoreConformance, storeRecord } from '@plantstore/core/testing';
import { capturedLogger } from '@plantstore/http-suite';
import { Client, type Pool, type PoolClient } from 'pg';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { postgresReplayStore, postgresStore, type PostgresStore } from '../src/index';
import {
  blockedInsert,
  context,
  databaseUrlFor,
  deadPool,
  delay,
  expectStatementTimeout,
  expectTimedOutCreateCancelled,
  failureOf,
  INT64_MAX,
  INT64_MIN,
  lockTable as lockTableOf,
  lockWaiters,
  onSilentPool,
  recordingService,
  refusalCauses,
  rowsIn,
  storeOnNewTable,
  suiteDatabase,
  uniqueTable,
  waitFor,
} from './services';

const databaseUrl = databaseUrlFor('the PostgreSQL server suites');

const T = Date.UTC(2026, 0, 1);
// Long enough for a call to reach the queue, or a cancel to reach the server: well under the lock.
const QUEUED_MS = 100;

describe.skipIf(databaseUrl === undefined)('postgresStore on a PostgreSQL server', () => {
  const db = suiteDatabase(databaseUrl);
  const { tables, newPool } = db;

  /** A pool of the test's own, ended when the test finishes, passed or failed. */
  const testPool = (options: ConstructorParameters<typeof Pool>[0]): Pool => {
    const created = newPool(options);
    onTestFinished(() => created.end());
    return created;
  };

  /** Takes the pool's one connection, trying again where a busy machine let 150 ms pass first. */
  const holdOnlyConnection = async (pool: Pool): Promise<PoolClient> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await pool.connect();
      } catch (error) {
        if (attempt === 10) throw error;
      }
    }
  };

  const freshStore = (client: Pool | Client = db.pool): Promise<PostgresStore> =>
    storeOnNewTable(client, tables);

  const rowCount = (store: PostgresStore): Promise<number> => rowsIn(db.pool, store);

  /** Holds an ACCESS EXCLUSIVE lock on the store's table until `release` is called. */
  const lockTable = (store: PostgresStore) => lockTableOf(databaseUrl ?? '', store.table);

  /** Pids of backends whose insert into the store's table is waiting for a lock. */
  const waitingInserts = (store: PostgresStore): Promise<number[]> =>
    lockWaiters(db.pool, `INSERT INTO ${store.table} %`);

  describeStoreConformance({ describe, it }, 'postgresStore on a pg Pool', {
    create: () => freshStore(),
    // Another instance of the service: its own Pool, the same table.
    createPeer: (store) => postgresStore({ client: db.pool, table: store.table.slice(1, -1) }),
    destroy: (store) => store.close(),
    silent: onSilentPool((client) => postgresStore({ client, readyTimeout: 300 })),
  });

  describe('on a single pg Client', () => {
    let client: Client;
    beforeAll(async () => {
      client = new Client({ connectionString: databaseUrl });
      await client.connect();
    });
    afterAll(() => client.end());

    describeStoreConformance({ describe, it }, 'postgresStore on a pg Client', {
      create: () => freshStore(client),
      // Another instance of the service: the Pool's connections, the same table.
      createPeer: (store) => postgresStore({ client: db.pool, table: store.table.slice(1, -1) }),
      destroy: (store) => store.close(),
    });

    describe('shared with the replay store', () => {
      /** The plant store and a replay store on the shared Client, both tables created. */
      const bothStores = async () => {
        const store = await freshStore(client);
        const replayTable = uniqueTable('shared_replay');
        tables.push(replayTable);
        const replay = postgresReplayStore({ client, table: replayTable });
        await replay.ensureSchema();
        const remember = (signal = new AbortController().signal) =>
          replay.remember('proof', T + 60_000, { now: T, signal }).then(
            (value) => ({ value }),
            (error: unknown) => ({ failure: isPlantServiceError(error) ? error.code : error }),
          );
        const keysHeld = async (): Promise<number> => {
          const { rows } = await db.pool.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${replay.table}`,
          );
          return rows[0]?.n ?? -1;
        };
        return { store, replay, remember, keysHeld };
      };

      it('drops a create that timed out behind a blocked replay check: 503, no row, the check not cancelled', async () => {
        const { store, replay, remember, keysHeld } = await bothStores();
        const { created, rejected, post } = recordingService(store, 300);
        const lock = await lockTableOf(databaseUrl ?? '', replay.table);
        let checking: Promise<unknown> | undefined;
        try {
          checking = remember();
          await waitFor(
            async () => (await lockWaiters(db.pool, `INSERT % ${replay.table} %`)).length === 1,
            'the replay check to wait for the lock',
          );
          // The create queues behind the check on the one connection, and times out there.
          expect(await post(1)).toBe(503);
          expect(rejected).toEqual(['store_timeout']);
          // Time for a cancel, had one been sent, to reach the server while the lock is held.
          await delay(QUEUED_MS);
        } finally {
          await lock.release();
        }
        expect(await checking).toEqual({ value: true });
        expect(await keysHeld()).toBe(1);
        await replay.close();
        // Never sent, so the 503 left no row, and the client's retry creates the plant.
        expect(await rowCount(store)).toBe(0);
        expect(await post(1)).toBe(200);
        expect(created).toEqual([1n]);
        await store.close();
      });

      it('drops a replay check that timed out behind a blocked create: the create not cancelled, the key not kept', async () => {
        const { store, replay, remember, keysHeld } = await bothStores();
        const lock = await lockTable(store);
        let creating: Promise<unknown> | undefined;
        try {
          creating = store.insert(storeRecord({ id: 7n, name: 'fern' }), context());
          await waitFor(
            async () => (await waitingInserts(store)).length === 1,
            'the blocked create',
          );
          const controller = new AbortController();
          const checking = remember(controller.signal);
          // Long enough for the check to reach the queue: a few microtasks.
          await delay(QUEUED_MS);
          controller.abort(new Error('replay check time-out'));
          expect(await checking).toEqual({ failure: new Error('replay check time-out') });
          await delay(QUEUED_MS);
        } finally {
          await lock.release();
        }
        expect(await creating).toEqual({ created: true });
        await Promise.all([store.close(), replay.close()]);
        expect(await rowCount(store)).toBe(1);
        expect(await keysHeld()).toBe(0);
      });
    });
  });

  it('stores the extreme int64 ids exactly, as SQL sees them', async () => {
    const store = await freshStore();
    await store.insert(storeRecord({ id: INT64_MIN, name: 'min' }), context());
    await store.insert(storeRecord({ id: INT64_MAX, name: 'max', tag: 't' }), context());
    const { rows } = await db.pool.query(
      `SELECT id::text AS id, name, tag, created_by FROM ${store.table} ORDER BY id`,
    );
    expect(rows).toEqual([
      { id: '-9223372036854775808', name: 'min', tag: null, created_by: 'conformance' },
      { id: '9223372036854775807', name: 'max', tag: 't', created_by: 'conformance' },
    ]);
    const exact = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${store.table}
       WHERE id IN (-9223372036854775808, 9223372036854775807)`,
    );
    expect(exact.rows[0]?.n).toBe(2);
  });

  it('creates the schema idempotently, also from several connections at once', async () => {
    const table = uniqueTable('schema');
    tables.push(table);
    const stores = Array.from({ length: 8 }, () => postgresStore({ client: db.pool, table }));
    await Promise.all(stores.map((store) => store.ensureSchema()));
    await stores[0]?.ensureSchema();
    const { rows } = await db.pool.query(
      `SELECT column_name, data_type, is_nullable FROM information_schema.columns
       WHERE table_name = $1 ORDER BY ordinal_position`,
      [table],
    );
    expect(rows).toEqual([
      { column_name: 'tenant', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'id', data_type: 'bigint', is_nullable: 'NO' },
      { column_name: 'name', data_type: 'text', is_nullable: 'NO' },
      { column_name: 'tag', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'created_by', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'client_id', data_type: 'text', is_nullable: 'YES' },
      { column_name: 'created_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
      { column_name: 'token_id', data_type: 'text', is_nullable: 'YES' },
    ]);
  });

  it('never fails ensureSchema() for losing the race to create the table, in 30 races of 8', async () => {
    // PostgreSQL answers the loser 23505, 42P07 or, rarely, 42710 depending on the moment the winner
    // committed; one race seldom shows the rare one.
    for (let round = 0; round < 30; round += 1) {
      const table = uniqueTable('schema_race');
      tables.push(table);
      const stores = Array.from({ length: 8 }, () => postgresStore({ client: db.pool, table }));
      await Promise.all(stores.map((store) => store.ensureSchema()));
    }
    // Three tables a race (the plants and the outbox's two): 240 schema steps, slow on a busy machine.
  }, 90_000);

  it('answers ready() with SELECT 1', async () => {
    await expect(postgresStore({ client: db.pool }).ready()).resolves.toBeUndefined();
  });

  describe('error mapping', () => {
    it('maps a pool pointed at a closed port to store_unavailable, with the refusal as cause', async () => {
      const dead = await deadPool();
      try {
        const store = postgresStore({ client: dead });
        for (const cause of await refusalCauses(store)) {
          expect(JSON.stringify(cause, ['code', 'errors'])).toContain('ECONNREFUSED');
        }
        expect(await failureOf(store.ensureSchema())).toMatchObject({ code: 'store_unavailable' });
      } finally {
        await dead.end();
      }
    });

    it('maps a connection terminated mid-query (pg_terminate_backend) to store_unavailable', async () => {
      const store = await freshStore();
      const lock = await lockTable(store);
      try {
        const pending = failureOf(store.insert(storeRecord({ id: 1n, name: 'x' }), context()));
        await waitFor(async () => (await waitingInserts(store)).length === 1, 'the blocked insert');
        const [pid] = await waitingInserts(store);
        await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
        const failure = await pending;
        expect(failure).toMatchObject({ status: 503, code: 'store_unavailable' });
        expect((failure as { error: Error }).error.cause).toMatchObject({ code: '57P01' });
      } finally {
        await lock.release();
      }
      // The pool dropped the dead connection and serves the next insert.
      expect(await store.insert(storeRecord({ id: 1n, name: 'x' }), context())).toEqual({
        created: true,
      });
    });

    it('maps an exhausted pool (max 1, held, short connectionTimeoutMillis) to store_unavailable', async () => {
      // The table is made through the suite's pool: the 150 ms connect limit is for the insert
      // under test, and a busy machine can take longer than that to open the schema's connection.
      const table = uniqueTable('server');
      await storeOnNewTable(db.pool, tables, table);
      const tiny = testPool({ max: 1, connectionTimeoutMillis: 150 });
      const store = postgresStore({ client: tiny, table });
      const held = await holdOnlyConnection(tiny);
      try {
        const started = Date.now();
        const failure = await failureOf(
          store.insert(storeRecord({ id: 1n, name: 'x' }), context()),
        );
        expect(failure).toMatchObject({ status: 503, code: 'store_unavailable' });
        expect((failure as { error: Error }).error.cause).toMatchObject({
          message: 'timeout exceeded when trying to connect',
        });
        expect(Date.now() - started).toBeLessThan(2_000);
      } finally {
        held.release();
      }
      expect(await rowCount(store)).toBe(0);
      await store.close();
    });

    it('maps a statement_timeout to store_timeout and writes nothing', async () => {
      const slow = testPool({ statement_timeout: 200 });
      const store = await storeOnNewTable(slow, tables, uniqueTable('server'), db.pool);
      await expectStatementTimeout(databaseUrl ?? '', db.pool, store);
    });

    it('answers 503 with Retry-After through the core when the store is unavailable', async () => {
      const dead = await deadPool();
      const logger = capturedLogger();
      const service = createPlantService({
        store: postgresStore({ client: dead }),
        auth: {
          verify: (token) =>
            Promise.resolve(
              token === 'good' ? { subject: 's', scopes: [], claims: {} } : undefined,
            ),
        },
        logger,
      });
      try {
        const response = await service.fetch(
          new Request('http://host/plants', {
            method: 'POST',
            headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
            body: '{"id": 1, "name": "x"}',
          }),
        );
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
        expect(await response.text()).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
        expect(logger.errors.map(({ failure }) => failure.code)).toEqual(['store_unavailable']);
      } finally {
        await dead.end();
      }
    });

    it('passes any other failure through unchanged, for the core to answer 500', async () => {
      const store = postgresStore({ client: db.pool, table: uniqueTable('missing') });
      const error = await failureOf(store.insert(storeRecord({ id: 1n, name: 'x' }), context()));
      expect(isPlantServiceError(error)).toBe(false);
      expect(error).toMatchObject({ code: '42P01' });
    });
  });

  describe('the abort signal', () => {
    it('writes nothing and sends nothing when the signal has already fired', async () => {
      const store = await freshStore();
      const controller = new AbortController();
      controller.abort(new Error('store time-out'));
      const before = db.pool.totalCount - db.pool.idleCount;
      await expect(
        store.insert(storeRecord({ id: 1n, name: 'x' }), context(controller.signal)),
      ).rejects.toThrow('store time-out');
      expect(db.pool.totalCount - db.pool.idleCount).toBe(before);
      expect(await rowCount(store)).toBe(0);
    });

    it('rejects at once and cancels the statement on the server when aborted during a blocked insert', async () => {
      const store = await freshStore();
      const lock = await lockTable(store);
      try {
        const { pending, controller } = await blockedInsert(store, () => waitingInserts(store));
        const started = Date.now();
        controller.abort(new Error('store time-out'));
        await expect(pending).rejects.toThrow('store time-out');
        expect(Date.now() - started).toBeLessThan(1_000);
        // Cancelled while the lock is still held: it did not simply finish once the lock went.
        await waitFor(async () => (await waitingInserts(store)).length === 0, 'the cancel');
        await store.close();
      } finally {
        await lock.release();
      }
      expect(await rowCount(store)).toBe(0);
      expect(db.pool.totalCount - db.pool.idleCount).toBe(0);
    });

    it('cancels every timed-out insert of an exhausted pool, so no 503 leaves a row and each retry creates', async () => {
      const small = testPool({ max: 4 });
      const store = await freshStore(small);
      const { created, rejected, post } = recordingService(store, 500);
      const ids = [1, 2, 3, 4];
      const lock = await lockTable(store);
      try {
        expect(await Promise.all(ids.map(post))).toEqual([503, 503, 503, 503]);
        expect(rejected).toEqual([
          'store_timeout',
          'store_timeout',
          'store_timeout',
          'store_timeout',
        ]);
        // Cancelled while the lock is still held, with no pooled connection free to cancel through.
        await waitFor(async () => (await waitingInserts(store)).length === 0, 'the cancels');
      } finally {
        await lock.release();
      }
      await waitFor(() => Promise.resolve(small.idleCount === 4), 'the connections to come back');
      expect(await rowCount(store)).toBe(0);
      expect(await Promise.all(ids.map(post))).toEqual([200, 200, 200, 200]);
      expect(created.sort()).toEqual([1n, 2n, 3n, 4n]);
      await store.close();
    });

    it('cancels a timed-out insert on a single Client, so the 503 leaves no row and the retry creates', async () => {
      const single = new Client({ connectionString: databaseUrl });
      await single.connect();
      const store = await freshStore(single);
      await expectTimedOutCreateCancelled(databaseUrl ?? '', db.pool, store);
      await store.close();
      await single.end();
    });

    it('stops waiting for a pooled connection when aborted, and gives the connection back later', async () => {
      const tiny = testPool({ max: 1 });
      const store = await freshStore(tiny);
      const held = await tiny.connect();
      const controller = new AbortController();
      const pending = store.insert(storeRecord({ id: 1n, name: 'x' }), context(controller.signal));
      setTimeout(() => controller.abort(new Error('store time-out')), 50);
      await expect(pending).rejects.toThrow('store time-out');
      held.release();
      await waitFor(() => Promise.resolve(tiny.idleCount === 1), 'the connection to come back');
      expect(await rowCount(store)).toBe(0);
      await store.close();
    });
  });
});

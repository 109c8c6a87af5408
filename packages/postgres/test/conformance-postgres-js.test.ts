import { isPlantServiceError } from '@plantstore/core';
import {
  describeReplayStoreConformance,
  describeStoreConformance,
  storeRecord,
} from '@plantstore/core/testing';
import { Pool } from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import {
  postgresReplayStore,
  postgresStore,
  type PostgresClient,
  type PostgresStore,
} from '../src/index';
import * as services from './services';

const { context, failureOf, lockTable: lockTableOf, uniqueTable, waitFor } = services;
const databaseUrl = services.databaseUrlFor('the postgres client suites');

it('takes the postgres client and a connection reserved from it, as their types are', () => {
  expectTypeOf<postgres.Sql>().toExtend<PostgresClient>();
  expectTypeOf<postgres.Sql<{ bigint: bigint }>>().toExtend<PostgresClient>();
  expectTypeOf<postgres.ReservedSql>().toExtend<PostgresClient>();
});

describe.skipIf(databaseUrl === undefined)('postgresStore on the postgres client', () => {
  // The host's own options, which must change nothing the store reads or writes: int8 parsed to
  // BigInt, columns in PascalCase, values transformed, no prepared statements (PgBouncer).
  const options = {
    max: 6,
    prepare: false,
    types: { bigint: postgres.BigInt },
    transform: postgres.pascal,
  };
  let sql: postgres.Sql<{ bigint: bigint }>;
  let pool: Pool;
  const tables: string[] = [];

  const freshStore = (client: PostgresClient = sql, table?: string): Promise<PostgresStore> =>
    services.storeOnNewTable(client, tables, table ?? uniqueTable('postgresjs'));

  const rowCount = (store: PostgresStore): Promise<number> => services.rowsIn(pool, store);

  const waitingInserts = (store: PostgresStore): Promise<number[]> =>
    services.lockWaiters(pool, `INSERT INTO ${store.table} %`);

  beforeAll(() => {
    sql = postgres(databaseUrl ?? '', options);
    pool = new Pool({ connectionString: databaseUrl, max: 4 });
  });

  afterAll(async () => {
    for (const table of tables)
      await pool.query(
        `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
      );
    await Promise.all([sql.end({ timeout: 5 }), pool.end()]);
  });

  /**
   * Both conformance suites on one client: `postgres(url)`, or a connection reserved from it. The
   * silent server's case runs once, on `postgres(url)`: a reserved connection reaches no other code.
   */
  const conformance = (name: string, client: () => PostgresClient, silent = false): void => {
    const onSilent = <S extends object>(build: (sql: PostgresClient) => S) =>
      silent ? services.onSilentPostgresJs(build, options) : undefined;
    describeStoreConformance({ describe, it }, `postgresStore on ${name}`, {
      create: () => freshStore(client()),
      destroy: (store) => store.close(),
      silent: onSilent((sql) => postgresStore({ client: sql, readyTimeout: 300 })),
    });
    describeReplayStoreConformance({ describe, it }, `postgresReplayStore on ${name}`, {
      create: () => {
        const table = uniqueTable('postgresjs_replay');
        tables.push(table);
        return postgresReplayStore({ client: client(), table });
      },
      destroy: (store) => store.close(),
      silent: onSilent((sql) => postgresReplayStore({ client: sql, readyTimeout: 300 })),
    });
  };

  conformance('postgres(url)', () => sql, true);

  describe('on a reserved connection', () => {
    let reserved: postgres.ReservedSql<{ bigint: bigint }>;
    beforeAll(async () => {
      reserved = await sql.reserve();
    });
    afterAll(() => reserved.release());
    conformance('sql.reserve()', () => reserved);
  });

  it('keeps the int64 ends and ids past 2^53 exact both ways, whatever the client parses', async () => {
    const store = await freshStore();
    const ids = [services.INT64_MIN, services.INT64_MAX, 2n ** 53n + 1n, -(2n ** 53n) - 1n];
    for (const id of ids) {
      expect(
        await store.insert(storeRecord({ id, name: `Fern ${id}`, tag: 'ß' }), context()),
      ).toEqual({
        created: true,
      });
      expect(
        await store.insert(storeRecord({ id, name: `Fern ${id}`, tag: 'ß' }), context()),
      ).toMatchObject({
        created: false,
        existing: { id, name: `Fern ${id}`, tag: 'ß', tenant: '', createdBy: 'conformance' },
      });
    }
    const { rows } = await pool.query<{ text: string }>(
      `SELECT id::text AS text FROM ${store.table} ORDER BY id`,
    );
    const ascending = [...ids].sort((a, b) => (a < b ? -1 : 1));
    expect(rows.map((row) => row.text)).toEqual(ascending.map(String));
  });

  describe('the store time-out', () => {
    it('cancels a statement blocked by a held lock on the server, and it never commits', async () => {
      const table = uniqueTable('postgresjs_cancel');
      const store = await freshStore(sql, table);
      const lock = await lockTableOf(databaseUrl ?? '', store.table);
      try {
        const { pending, controller } = await services.blockedInsert(store, () =>
          waitingInserts(store),
        );
        controller.abort(new Error('store time-out'));
        await expect(pending).rejects.toThrow('store time-out');
        // Cancelled while the lock is still held: it did not simply finish once the lock went.
        await waitFor(async () => (await waitingInserts(store)).length === 0, 'the cancel');
        await store.close();
      } finally {
        await lock.release();
      }
      expect(await rowCount(store)).toBe(0);
      // The reserved connection went back to the client, which serves the next statement.
      const next = postgresStore({ client: sql, table });
      expect(await next.insert(storeRecord({ id: 1n, name: 'x' }), context())).toEqual({
        created: true,
      });
    });

    it('answers 503 for every create of an exhausted client held past the time-out, and each retry creates', async () => {
      const small = postgres(databaseUrl ?? '', { ...options, max: 2 });
      try {
        const store = await freshStore(small);
        const { created, rejected, post } = services.recordingService(store, 500);
        const ids = [1, 2, 3, 4];
        const lock = await lockTableOf(databaseUrl ?? '', store.table);
        try {
          expect(await Promise.all(ids.map(post))).toEqual([503, 503, 503, 503]);
          expect(rejected).toEqual(Array(4).fill('store_timeout'));
          // Two were running and are cancelled; two waited for a connection and were never sent.
          await waitFor(async () => (await waitingInserts(store)).length === 0, 'the cancels');
        } finally {
          await lock.release();
        }
        expect(await rowCount(store)).toBe(0);
        expect(await Promise.all(ids.map(post))).toEqual([200, 200, 200, 200]);
        expect(created.sort()).toEqual([1n, 2n, 3n, 4n]);
        await store.close();
      } finally {
        await small.end({ timeout: 5 });
      }
    });

    it('cancels a timed-out create on a reserved connection, and the next statement runs', async () => {
      const reserved = await sql.reserve();
      try {
        const store = await freshStore(reserved);
        await services.expectTimedOutCreateCancelled(databaseUrl ?? '', pool, store);
        await store.close();
      } finally {
        reserved.release();
      }
    });
  });

  describe('error mapping', () => {
    it('maps a refused connection to store_unavailable, with the refusal as cause', async () => {
      const dead = postgres({
        host: '127.0.0.1',
        port: await services.closedPort(),
        connect_timeout: 2,
      });
      try {
        const store = postgresStore({ client: dead });
        for (const cause of await services.refusalCauses(store)) {
          expect(cause).toMatchObject({ code: 'ECONNREFUSED' });
        }
      } finally {
        await dead.end({ timeout: 0 });
      }
    });

    it('maps an ended client to store_unavailable', async () => {
      const ended = postgres(databaseUrl ?? '', options);
      await ended.end();
      const failure = await failureOf(postgresStore({ client: ended }).ready());
      expect(failure).toMatchObject({ status: 503, code: 'store_unavailable' });
      expect((failure as { error: Error }).error.cause).toMatchObject({
        code: 'CONNECTION_ENDED',
      });
    });

    it('maps a connection terminated mid-statement to store_unavailable, and serves the next', async () => {
      const store = await freshStore();
      const lock = await lockTableOf(databaseUrl ?? '', store.table);
      try {
        const pending = failureOf(store.insert(storeRecord({ id: 1n, name: 'x' }), context()));
        await waitFor(async () => (await waitingInserts(store)).length === 1, 'the blocked insert');
        const [pid] = await waitingInserts(store);
        await pool.query('SELECT pg_terminate_backend($1)', [pid]);
        expect(await pending).toMatchObject({ status: 503, code: 'store_unavailable' });
      } finally {
        await lock.release();
      }
      expect(await store.insert(storeRecord({ id: 1n, name: 'x' }), context())).toEqual({
        created: true,
      });
    });

    it('maps a server-side statement_timeout to store_timeout and writes nothing', async () => {
      const slow = postgres(databaseUrl ?? '', {
        ...options,
        connection: { statement_timeout: 200 },
      });
      try {
        const store = await services.storeOnNewTable(slow, tables, uniqueTable('postgresjs'), sql);
        await services.expectStatementTimeout(databaseUrl ?? '', pool, store);
      } finally {
        await slow.end({ timeout: 5 });
      }
    });

    it('passes any other failure through unchanged, for the core to answer 500', async () => {
      const store = postgresStore({ client: sql, table: uniqueTable('missing') });
      const error = await failureOf(store.insert(storeRecord({ id: 1n, name: 'x' }), context()));
      expect(isPlantServiceError(error)).toBe(false);
      expect(error).toMatchObject({ code: '42P01' });
    });
  });
});

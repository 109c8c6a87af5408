import { storeRecord } from '@plantstore/core/testing';
import { isPlantServiceError, type Principal } from '@plantstore/core';
import type { PoolConnection } from 'mysql2';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mapStoreError } from '../src/map-error';
import { mysqlReplayStore, mysqlStore } from '../src/index';
import { databaseOfThisFile, mysqlUrlFor, promisePool } from './services';

const url = mysqlUrlFor('the MySQL store settings suite');
const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
const context = () => ({ principal, signal: new AbortController().signal });

/** The status and code a failure maps to, or the failure itself when it stays a 500. */
const mapped = (failure: unknown) => {
  const error = mapStoreError(failure);
  return isPlantServiceError(error) ? [error.status, error.code] : error;
};

describe('mysqlStore and mysqlReplayStore refuse a misconfiguration when they are created', () => {
  it.each([
    [
      'no options',
      () => mysqlStore(undefined as never),
      'mysqlStore: option "options" must be an object; received undefined',
    ],
    [
      'a client that is no mysql2 client',
      () => mysqlStore({ client: {} as never }),
      'mysqlStore: option "client" must be a mysql2 Pool, PoolConnection or Connection ' +
        '(callback or promise API); received an instance of Object',
    ],
    [
      'an unknown option',
      () => mysqlStore({ client: {}, tabel: 'x' } as never),
      'mysqlStore: unknown option "tabel" (did you mean "table"?)',
    ],
    [
      'a table that is no identifier',
      () => mysqlReplayStore({ client: { getConnection() {} }, table: 'plants; DROP' }),
      'mysqlReplayStore: option "table" must be a table name, optionally database-qualified, ' +
        'of letters, digits, _ and $ (at most 64 for the table, not starting with a digit); ' +
        'received a string of 12 characters',
    ],
    [
      'a prune count of 0',
      () => mysqlReplayStore({ client: { getConnection() {} }, pruneEvery: 0 }),
      'mysqlReplayStore: option "pruneEvery" must be a whole number from 1 to 1000000; received 0',
    ],
  ])('throws a TypeError for %s', (_what, create, message) => {
    expect(create).toThrow(new TypeError(message));
  });
});

describe('mapStoreError', () => {
  it.each([
    ['a deadlock', { errno: 1213 }, [503, 'store_unavailable']],
    ['a lock-wait time-out', { errno: 1205 }, [503, 'store_timeout']],
    ['too many connections', { errno: 1040 }, [503, 'store_unavailable']],
    [
      'a lost connection',
      { code: 'PROTOCOL_CONNECTION_LOST', fatal: true },
      [503, 'store_unavailable'],
    ],
    [
      'every address refused',
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]),
      [503, 'store_unavailable'],
    ],
    [
      'an exhausted Pool that does not wait',
      new Error('No connections available.'),
      [503, 'store_unavailable'],
    ],
  ])('answers %s 503', (_what, failure, answer) => {
    expect(mapped(failure)).toEqual(answer);
  });

  it.each([
    ['a syntax error', Object.assign(new Error('You have an error'), { errno: 1064 })],
    ['a missing table', Object.assign(new Error("Table 'x' doesn't exist"), { errno: 1146 })],
    ['a denied command', Object.assign(new Error('INSERT command denied'), { errno: 1142 })],
  ])('leaves %s as it is, for a 500', (_what, failure) => {
    expect(mapped(failure)).toBe(failure);
  });
});

describe.skipIf(url === undefined)(
  'the MySQL store whatever the client settings, on MariaDB',
  () => {
    const database = databaseOfThisFile(url);

    it('refuses at ensureSchema() a table whose text columns are utf8mb3, naming them', async () => {
      const table = database.newTable('utf8mb3');
      await database.pool.query(
        `CREATE TABLE \`${table}\` (tenant VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin ` +
          "NOT NULL DEFAULT '', id BIGINT, name TEXT NOT NULL, tag TEXT, " +
          'created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), created_by TEXT, ' +
          'client_id TEXT, token_id TEXT, PRIMARY KEY (tenant, id)) DEFAULT CHARSET=utf8mb3',
      );
      await expect(mysqlStore({ client: database.pool, table }).ensureSchema()).rejects.toThrow(
        `The table \`${table}\` exists but cannot keep plants exactly: column name is in utf8mb3, ` +
          'not utf8mb4; column tag is in utf8mb3, not utf8mb4; column created_by is in utf8mb3, ' +
          'not utf8mb4; column client_id is in utf8mb3, not utf8mb4; column token_id is in ' +
          'utf8mb3, not utf8mb4.',
      );
    });

    it.each([
      [
        'an unsigned id',
        'id BIGINT UNSIGNED, name TEXT NOT NULL, tag TEXT, PRIMARY KEY (tenant, id)',
        'column id is bigint(20) unsigned, not a signed bigint',
      ],
      [
        'no primary key on (tenant, id)',
        'id BIGINT NOT NULL, name TEXT NOT NULL, tag TEXT',
        'column tenant is not in the primary key; column id is not the primary key',
      ],
      [
        'a name that a long one would not fit',
        'id BIGINT, name VARCHAR(20) NOT NULL, tag TINYTEXT, PRIMARY KEY (tenant, id)',
        'column name is varchar(20), not a text type that holds any name; ' +
          'column tag is tinytext, not a text type that holds any name',
      ],
    ])(
      'refuses at ensureSchema() a table with %s, whatever the SQL mode would make of it',
      async (_case, columns, problems) => {
        const table = database.newTable('misfit');
        await database.pool.query(
          `CREATE TABLE \`${table}\` (tenant VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin ` +
            `NOT NULL, ${columns}, created_at DATETIME(3) NULL, created_by TEXT, client_id TEXT, ` +
            'token_id TEXT) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
        );
        await expect(mysqlStore({ client: database.pool, table }).ensureSchema()).rejects.toThrow(
          `The table \`${table}\` exists but cannot keep plants exactly: ${problems}.`,
        );
      },
    );

    it('refuses at ensureSchema() a table of the schema before tenants, naming the migration', async () => {
      const table = database.newTable('before49');
      const text = 'MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
      await database.pool.query(
        `CREATE TABLE \`${table}\` (id BIGINT NOT NULL PRIMARY KEY, name ${text} NOT NULL, ` +
          `tag ${text} NULL, created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), ` +
          `created_by ${text} NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
      );
      await expect(mysqlStore({ client: database.pool, table }).ensureSchema()).rejects.toThrow(
        `The table \`${table}\` is of the schema before plants kept their tenant and owner (no ` +
          'tenant, client_id, token_id). Run the migration of docs/guides/upgrading.md ("Plants ' +
          'keep their owner and tenant") on it, then start again.',
      );
    });

    it.each([
      ['a utf8mb3 connection', { charset: 'UTF8_GENERAL_CI' }],
      ['a latin1 connection', { charset: 'LATIN1_SWEDISH_CI' }],
      [
        'supportBigNumbers with bigNumberStrings',
        { supportBigNumbers: true, bigNumberStrings: true },
      ],
      ['a typeCast that turns every column into a number', { typeCast: () => 0 }],
      ['named placeholders and rows as arrays', { namedPlaceholders: true, rowsAsArray: true }],
    ])('keeps ids and strings exact on %s', async (_what, settings) => {
      const pool = promisePool(url ?? '', settings);
      onTestFinished(() => pool.end());
      const store = mysqlStore({ client: pool, table: database.newTable('settings') });
      await store.ensureSchema();
      const plants = [
        { id: 9_223_372_036_854_775_807n, name: 'Ｆｅｒｎ 🌵', tag: 'e\u0301' },
        { id: -9_223_372_036_854_775_808n, name: "'; DROP TABLE x; --", tag: '' },
        { id: 9_007_199_254_740_993n, name: 'Fern ' },
      ];
      for (const plant of plants) {
        expect(await store.insert(storeRecord(plant), context())).toEqual({ created: true });
        const again = await store.insert(storeRecord({ id: plant.id, name: 'x' }), context());
        // The audit fields come back too, whatever the settings make of a DATETIME or text.
        expect(again).toEqual({ created: false, existing: storeRecord(plant) });
      }
    });

    it('answers ready() once the server answers, creating a missing replay table, and 503 once closed', async () => {
      const replay = mysqlReplayStore({ client: database.pool, table: database.newTable('ready') });
      await replay.ready();
      const [rows] = await database.pool.query(`SELECT COUNT(*) AS n FROM ${replay.table}`);
      expect(rows).toEqual([{ n: 0 }]);
      await replay.close();
      await expect(replay.ready()).rejects.toMatchObject({
        status: 503,
        code: 'replay_store_unavailable',
      });
    });

    it('works on a connection lent by a promise Pool and one lent by a callback Pool', async () => {
      const promiseLent = await database.pool.getConnection();
      onTestFinished(() => promiseLent.release());
      const callbackLent = await new Promise<PoolConnection>((resolve, reject) =>
        database.pool.pool.getConnection((error, lent) => (error ? reject(error) : resolve(lent))),
      );
      onTestFinished(() => callbackLent.release());
      for (const client of [promiseLent, callbackLent]) {
        const store = mysqlStore({ client, table: database.newTable('lent') });
        await store.ensureSchema();
        expect(await store.insert(storeRecord({ id: 1n, name: 'Fern' }), context())).toEqual({
          created: true,
        });
        expect(await store.insert(storeRecord({ id: 1n, name: 'fern' }), context())).toEqual({
          created: false,
          existing: storeRecord({ id: 1n, name: 'Fern' }),
        });
        await store.close();
      }
    });

    it('prunes expired keys of the replay store, and only those', async () => {
      const replay = mysqlReplayStore({ client: database.pool, table: database.newTable('prune') });
      const now = Date.UTC(2026, 0, 1);
      const signal = new AbortController().signal;
      await replay.remember('old', now - 1, { now: now - 60_000, signal });
      await replay.remember('new', now + 60_000, { now, signal });
      expect(await replay.prune(now)).toBe(1);
      expect(await replay.remember('new', now + 60_000, { now, signal })).toBe(false);
      expect(await replay.remember('old', now + 60_000, { now, signal })).toBe(true);
      await replay.close();
    });
  },
);

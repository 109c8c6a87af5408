import { describeReplayStoreConformance, describeStoreConformance } from '@plantstore/core/testing';
import mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mysqlReplayStore, mysqlStore, type MysqlClient } from '../src/index';
import { callbackPool, mysqlUrlFor, promisePool, uniqueTable } from './services';

const url = mysqlUrlFor('the MySQL store conformance suites');

describe.skipIf(url === undefined)('the MySQL stores on MariaDB', () => {
  const tables: string[] = [];
  let pool: mysqlPromise.Pool;
  let connection: mysqlPromise.Connection;
  let callback: ReturnType<typeof callbackPool>;

  beforeAll(async () => {
    pool = promisePool(url ?? '');
    callback = callbackPool(url ?? '', { connectionLimit: 4 });
    connection = await mysqlPromise.createConnection({ uri: url ?? '' });
  });

  afterAll(async () => {
    for (const table of tables) await pool.query(`DROP TABLE IF EXISTS \`${table}\``);
    await connection.end();
    await new Promise((resolve) => callback.end(resolve));
    await pool.end();
  });

  const clients: readonly [string, () => MysqlClient][] = [
    ['a promise Pool', () => pool],
    ['a promise Connection', () => connection],
    ['a callback Pool', () => callback],
  ];

  for (const [name, client] of clients) {
    describeStoreConformance({ describe, it }, `mysqlStore on ${name}`, {
      create: async () => {
        const table = uniqueTable('conf');
        tables.push(table);
        const store = mysqlStore({ client: client(), table });
        await store.ensureSchema();
        return store;
      },
      destroy: (store) => store.close(),
    });

    describeReplayStoreConformance({ describe, it }, `mysqlReplayStore on ${name}`, {
      create: async () => {
        const table = uniqueTable('replay');
        tables.push(table);
        const store = mysqlReplayStore({ client: client(), table });
        await store.ensureSchema();
        return store;
      },
      createPeer: (store) =>
        mysqlReplayStore({ client: callback, table: store.table.replaceAll('`', '') }),
      destroy: (store) => store.close(),
    });
  }
});

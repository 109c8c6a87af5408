import { describeReplayStoreConformance, describeStoreConformance } from '@plantstore/core/testing';
import mysqlPromise from 'mysql2/promise';
import type { SilentStoreOptions } from '@plantstore/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  mysqlReplayStore,
  mysqlStore,
  type MysqlClient,
  type MysqlReplayStore,
  type MysqlStore,
} from '../src/index';
import { callbackPool, databaseOfThisFile, mysqlUrlFor } from './services';

const url = mysqlUrlFor('the MySQL store conformance suites');

describe.skipIf(url === undefined)('the MySQL stores on MariaDB', () => {
  const database = databaseOfThisFile(url);
  let connection: mysqlPromise.Connection;
  let callback: ReturnType<typeof callbackPool>;

  beforeAll(async () => {
    callback = callbackPool(url ?? '', { connectionLimit: 4 });
    connection = await mysqlPromise.createConnection({ uri: url ?? '' });
  });
  afterAll(async () => {
    await connection.end();
    await new Promise((resolve) => callback.end(resolve));
  });

  /** A store of `factory` on `client`, in a fresh table, its schema made. */
  const schemaReady =
    <S extends { ensureSchema(): Promise<void> }>(
      factory: (options: { client: MysqlClient; table: string }) => S,
      client: () => MysqlClient,
    ) =>
    async (): Promise<S> => {
      const store = factory({ client: client(), table: database.newTable('conformance') });
      await store.ensureSchema();
      return store;
    };

  /** The lifecycle's silent store: `build` on a Pool to the kit's silent server, ended after. */
  const onSilentPool = <S extends object>(
    build: (client: MysqlClient) => S,
  ): SilentStoreOptions<S> => {
    const pools = new Map<S, mysqlPromise.Pool>();
    return {
      create: ({ host, port }) => {
        const pool = mysqlPromise.createPool({ host, port, user: 'root', connectionLimit: 1 });
        const store = build(pool);
        pools.set(store, pool);
        return store;
      },
      destroy: async (store) => {
        // The silent server has dropped the Pool's connection; ending it may say so.
        await pools
          .get(store)
          ?.end()
          .catch(() => undefined);
        pools.delete(store);
      },
    };
  };

  const clients: readonly [string, () => MysqlClient][] = [
    ['a promise Pool', () => database.pool],
    ['a promise Connection', () => connection],
    ['a callback Pool', () => callback],
  ];
  for (const [name, client] of clients) {
    describeStoreConformance<MysqlStore>({ describe, it }, `mysqlStore on ${name}`, {
      create: schemaReady(mysqlStore, client),
      // Another instance of the service: its own client, the same table.
      createPeer: (store) =>
        mysqlStore({ client: callback, table: store.table.replaceAll('`', '') }),
      destroy: (store) => store.close(),
      silent: onSilentPool((client) => mysqlStore({ client, readyTimeout: 300 })),
    });
    describeReplayStoreConformance<MysqlReplayStore>(
      { describe, it },
      `mysqlReplayStore on ${name}`,
      {
        create: schemaReady(mysqlReplayStore, client),
        // Another instance of the service: its own client, the same table.
        createPeer: (store) =>
          mysqlReplayStore({ client: callback, table: store.table.replaceAll('`', '') }),
        destroy: (store) => store.close(),
        silent: onSilentPool((client) => mysqlReplayStore({ client, readyTimeout: 300 })),
      },
    );
  }
});

import * as express from '@plantstore/express';
import { describeStoreContract } from '@plantstore/http-suite';
import { describe } from 'vitest';
import { mysqlStore, type MysqlStore } from '../src/index';
import { databaseOfThisFile, mysqlUrlFor } from './services';

const url = mysqlUrlFor('the HTTP contract on the MySQL store');

describe.skipIf(url === undefined)('the HTTP contract with mysqlStore on MariaDB', () => {
  const database = databaseOfThisFile(url);
  describeStoreContract('MySQL', { express }, async (): Promise<MysqlStore> => {
    const store = mysqlStore({ client: database.pool, table: database.newTable('http') });
    await store.ensureSchema();
    return store;
  });
});

import * as express from '@plantstore/express';
import * as fastify from '@plantstore/fastify';
import { describeMountedContract } from '@plantstore/http-suite';
import { latestHostsOn } from '@plantstore/http-suite/hosts';
import { describe } from 'vitest';
import { mysqlStore, type MysqlStore } from '../src/index';
import { databaseOfThisFile, mysqlUrlFor } from './services';

const url = mysqlUrlFor('the HTTP contract on the MySQL store');

describe.skipIf(url === undefined)('the HTTP contract with mysqlStore on MariaDB', () => {
  const database = databaseOfThisFile(url);
  const freshStore = async (): Promise<MysqlStore> => {
    const store = mysqlStore({ client: database.pool, table: database.newTable('http') });
    await store.ensureSchema();
    return store;
  };
  // The suite's store is replaced by a MySQL store: what it checks was stored is MySQL's row.
  for (const [major, targetOf] of Object.entries(latestHostsOn({ express, fastify }, freshStore))) {
    describeMountedContract(`${major} on MySQL,`, [{ name: 'at /' }], (_at, hooks) =>
      targetOf(hooks),
    );
  }
});

import * as express from '@plantstore/express';
import * as fastify from '@plantstore/fastify';
import { describeMountedContract } from '@plantstore/http-suite';
import {
  EXPRESS_AT_ROOT,
  EXPRESS_MAJORS,
  expressTarget,
  FASTIFY_AT_ROOT,
  FASTIFY_MAJORS,
  fastifyTarget,
  onServerStore,
  type HostHooks,
} from '@plantstore/http-suite/hosts';
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
  const hosts = {
    'Express 5': (hooks: HostHooks) =>
      expressTarget(EXPRESS_MAJORS['Express 5'], express.plantRouter, {
        ...express,
        mounting: EXPRESS_AT_ROOT,
        hooks,
      }),
    'Fastify 5': (hooks: HostHooks) =>
      fastifyTarget(FASTIFY_MAJORS['Fastify 5'], fastify.plantPlugin, {
        ...fastify,
        mounting: FASTIFY_AT_ROOT,
        hooks,
      }),
  };
  for (const [major, targetOf] of Object.entries(hosts)) {
    describeMountedContract(`${major} on MySQL,`, [{ name: 'at /' }], (_mounting, hooks) =>
      onServerStore(targetOf(hooks), freshStore),
    );
  }
});

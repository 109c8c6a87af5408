import type { MemoryStore, PlantStore } from '@plantstore/core';
import * as express from '@plantstore/express';
import * as fastify from '@plantstore/fastify';
import { describeMountedContract, type ContractTarget } from '@plantstore/http-suite';
import {
  EXPRESS_AT_ROOT,
  EXPRESS_MAJORS,
  expressTarget,
  FASTIFY_AT_ROOT,
  FASTIFY_MAJORS,
  fastifyTarget,
  type HostHooks,
} from '@plantstore/http-suite/hosts';
import { describe } from 'vitest';
import { mysqlStore, type MysqlStore } from '../src/index';
import { databaseOfThisFile, mysqlUrlFor } from './services';

const url = mysqlUrlFor('the HTTP contract on the MySQL store');

/**
 * The target with the suite's memory store replaced by a MySQL store: the suite's store then holds
 * what MySQL gave back (a created plant is read back from its row), so the suite's checks of what
 * was stored, byte for byte, are checks of MySQL's row. Stores of the suite's own (a failing store,
 * a slow one) pass through unchanged.
 */
function onMysql(target: ContractTarget, mysql: () => Promise<MysqlStore>): ContractTarget {
  return {
    passesOn: target.passesOn,
    async start(options, setup) {
      const mirror = options.store as Partial<MemoryStore>;
      if (typeof mirror.get !== 'function') return target.start(options, setup);
      const memory = options.store;
      const store = await mysql();
      const onServer: PlantStore = {
        async insert(plant, context) {
          const result = await store.insert(plant, context);
          if (result.created) {
            // The row as MySQL keeps it: asked for again under its id, the store reports it.
            const stored = await store.insert({ id: plant.id, name: '\u0000' }, context);
            if (!stored.created) await memory.insert(stored.existing, context);
          }
          return result;
        },
      };
      return target.start({ ...options, store: onServer }, setup);
    },
  };
}

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
      onMysql(targetOf(hooks), freshStore),
    );
  }
});

import * as express from '@plantstore/express';
import { describeStoreContract } from '@plantstore/http-suite';
import postgres from 'postgres';
import { afterAll, describe } from 'vitest';
import type { PostgresStore } from '../src/index';
import { databaseUrlFor, storeOnNewTable } from './services';

const databaseUrl = databaseUrlFor('the HTTP contract on the postgres client');

// The route as a user of porsager's client mounts it: the contract's plants are the rows it keeps.
describe.skipIf(databaseUrl === undefined)(
  'the HTTP contract with postgresStore on the postgres client',
  () => {
    const sql = postgres(databaseUrl ?? '', { max: 4, onnotice: () => undefined });
    const tables: string[] = [];
    afterAll(async () => {
      for (const table of tables)
        await sql.unsafe(
          `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
        );
      await sql.end({ timeout: 5 });
    });
    describeStoreContract('PostgreSQL (postgres client)', { express }, (): Promise<PostgresStore> =>
      storeOnNewTable(sql, tables),
    );
  },
);

import { postgresStore } from '@plantstore/postgres';
import knex from 'knex';
import type pg from 'pg';

export const db = knex({
  client: 'pg',
  connection: process.env.DATABASE_URL ?? 'postgres://localhost/app',
  pool: { max: 10 },
});

// Knex's pool is tarn's, which hands out pg Clients: the store takes one of them for good, and
// runs its statements on it one at a time. Give it back at shutdown, after store.close():
// db.client.releaseConnection(connection).
export const connection = (await db.client.acquireConnection()) as pg.Client;
export const store = postgresStore({ client: connection });

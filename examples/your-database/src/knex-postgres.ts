import { postgresStore } from '@plantstore/postgres';
import knex, { type Knex } from 'knex';
import type pg from 'pg';

export const db = knex({
  client: 'pg',
  connection: process.env.DATABASE_URL ?? 'postgres://localhost/app',
  pool: { max: 10 },
});

// Knex's pool is tarn's, which hands out pg Clients: the store takes one of them for good, and
// runs its statements on it one at a time. Give it back at shutdown, after store.close():
// client.releaseConnection(connection).
const client = db.client as Knex.Client; // typed `any` on the instance
export const connection = (await client.acquireConnection()) as pg.Client;
export const store = postgresStore({ client: connection });

import { mysqlStore } from '@plantstore/mysql';
import knex, { type Knex } from 'knex';
import type { Connection } from 'mysql2';

export const db = knex({
  client: 'mysql2',
  connection: process.env.MYSQL_URL ?? 'mysql://localhost/app',
  pool: { max: 10 },
});

// Knex's pool is tarn's, which hands out mysql2 Connections: the store takes one of them for good.
// Give it back at shutdown, after store.close(): client.releaseConnection(connection).
const client = db.client as Knex.Client; // typed `any` on the instance
export const connection = (await client.acquireConnection()) as Connection;
export const store = mysqlStore({ client: connection });

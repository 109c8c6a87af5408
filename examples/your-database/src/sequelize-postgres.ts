import { postgresStore } from '@plantstore/postgres';
import type pg from 'pg';
import { Sequelize } from 'sequelize';

export const sequelize = new Sequelize(process.env.DATABASE_URL ?? 'postgres://localhost/app', {
  logging: false,
  pool: { max: 10 },
});

// Sequelize's pool is its own (sequelize-pool), which hands out pg Clients: the store takes one of
// them for good, and runs its statements on it one at a time. Give it back at shutdown, after
// store.close(): sequelize.connectionManager.releaseConnection(connection).
export const connection = (await sequelize.connectionManager.getConnection({
  type: 'write',
})) as pg.Client;
export const store = postgresStore({ client: connection });

import { mysqlStore } from '@plantstore/mysql';
import type { Connection } from 'mysql2';
import { Sequelize } from 'sequelize';

export const sequelize = new Sequelize(process.env.MYSQL_URL ?? 'mysql://localhost/app', {
  logging: false,
  pool: { max: 10 },
});

// Sequelize's pool is its own (sequelize-pool), which hands out mysql2 Connections: the store takes
// one of them for good. Give it back at shutdown, after store.close():
// sequelize.connectionManager.releaseConnection(connection).
export const connection = (await sequelize.connectionManager.getConnection({
  type: 'write',
})) as Connection;
export const store = mysqlStore({ client: connection });

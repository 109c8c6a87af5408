import { mysqlStore } from '@plantstore/mysql';
import { Kysely, MysqlDialect } from 'kysely';
import { createPool, type Pool } from 'mysql2';

/** The app's tables; the store's own can be one of them. */
export interface Database {
  plants: { id: string; name: string; tag: string | null };
}

// Kysely keeps the pool to itself once given, so hold on to it and hand the store the same one.
export const pool: Pool = createPool({ uri: process.env.MYSQL_URL ?? 'mysql://localhost/app' });
export const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
export const store = mysqlStore({ client: pool });

import { postgresStore } from '@plantstore/postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

/** The app's tables; the store's own can be one of them. */
export interface Database {
  plants: { id: string; name: string; tag: string | null };
}

// Kysely keeps the Pool to itself once given, so hold on to it and hand the store the same one.
export const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
export const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
export const store = postgresStore({ client: pool });

import { randomBytes } from 'node:crypto';
import { postgresStore } from '@plantstore/postgres';
import type pg from 'pg';
import type { StoredRow } from './nothing-lost';

/**
 * A table name no other run uses; scenarios each create their own and drop it afterwards.
 *
 * @param purpose - a few words naming the scenario, such as `client_Express 5`
 * @returns `plantstore_rel_<purpose>_<pid>_<random>`, the purpose in lower case without spaces
 */
export function freshTableName(purpose: string): string {
  const word = purpose.toLowerCase().replace(/[^a-z0-9_]/g, '');
  return `plantstore_rel_${word}_${process.pid}_${randomBytes(3).toString('hex')}`;
}

/**
 * Creates the table with the store's own schema step.
 *
 * @param pool - a Pool of the scenario (not a host's)
 * @param table - the name
 */
export async function createPlantTable(pool: pg.Pool, table: string): Promise<void> {
  await postgresStore({ client: pool, table }).ensureSchema();
}

/**
 * Reads every row back, the id as PostgreSQL's own text of the bigint (never through a float).
 *
 * @param pool - a Pool of the scenario
 * @param table - the name
 * @returns the rows by id
 */
export async function readRows(pool: pg.Pool, table: string): Promise<Map<string, StoredRow>> {
  const { rows } = await pool.query<StoredRow>(`SELECT id::text AS id, name, tag FROM "${table}"`);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Drops the table.
 *
 * @param pool - a Pool of the scenario
 * @param table - the name
 */
export async function dropPlantTable(pool: pg.Pool, table: string): Promise<void> {
  await pool.query(`DROP TABLE IF EXISTS "${table}"`);
}

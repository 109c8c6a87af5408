import { randomBytes } from 'node:crypto';
import { postgresStore } from '@plantstore/postgres';
import type pg from 'pg';
import type { StoredRow } from './nothing-lost';

/**
 * A table name no other run uses; scenarios each create their own and drop it afterwards.
 *
 * @param purpose - a short word naming the scenario
 * @returns `plantstore_rel_<purpose>_<pid>_<random>`
 */
export function freshTableName(purpose: string): string {
  return `plantstore_rel_${purpose}_${process.pid}_${randomBytes(3).toString('hex')}`;
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

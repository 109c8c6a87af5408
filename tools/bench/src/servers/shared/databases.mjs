// The databases of the storage setups, and the store a developer would write by hand on them.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { PGlite } from '@electric-sql/pglite';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { DEFAULT_DATABASE_URL, DEFAULT_MYSQL_URL, POOL_SIZE } from '../../config.mjs';

/** PGlite in a fresh temporary data directory (durable, as the README sets it up); removed on close. */
export async function openPglite() {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-bench-'));
  const db = new PGlite(dir);
  await db.waitReady;
  return {
    client: db,
    table: 'plants',
    async close() {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A pg Pool of POOL_SIZE on DATABASE_URL, and the fresh table name the runner chose (BENCH_TABLE). */
export function openPool() {
  const table = process.env.BENCH_TABLE;
  if (table === undefined || !/^bench_plants_\w+$/.test(table)) {
    throw new TypeError('BENCH_TABLE must name a fresh table bench_plants_…');
  }
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
    max: POOL_SIZE,
  });
  return {
    client: pool,
    table,
    async close() {
      // The plants table and the outbox's two, which ensureSchema() creates beside it.
      await pool.query(
        `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
      );
      await pool.end();
    },
  };
}

/**
 * The PlantStore a competent developer writes by hand on pg or PGlite (both have `query(text,
 * values)`): the same row as @plantstore/postgres, `INSERT … ON CONFLICT DO NOTHING`, then a read
 * when nothing was inserted.
 *
 * @param {{ query(text: string, values?: unknown[]): Promise<{ rows: any[] }> }} client
 * @param {string} table
 * @returns {Promise<import('@plantstore/core').PlantStore>}
 */
export async function handWrittenStore(client, table) {
  await client.query(
    `CREATE TABLE IF NOT EXISTS "${table}" (id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT, ` +
      'created_at TIMESTAMPTZ NOT NULL DEFAULT now(), created_by TEXT)',
  );
  const insert =
    `INSERT INTO "${table}" (id, name, tag, created_by) VALUES ($1, $2, $3, $4) ` +
    'ON CONFLICT (id) DO NOTHING RETURNING id';
  const select = `SELECT name, tag FROM "${table}" WHERE id = $1`;
  return {
    async insert(plant, { principal }) {
      const id = plant.id.toString();
      const { rows } = await client.query(insert, [
        id,
        plant.name,
        plant.tag ?? null,
        principal.subject ?? null,
      ]);
      if (rows.length > 0) return { created: true };
      const [row] = (await client.query(select, [id])).rows;
      return {
        created: false,
        existing: { id: plant.id, name: row.name, tag: row.tag ?? undefined },
      };
    },
  };
}

/**
 * A mysql2 promise Pool of POOL_SIZE on MYSQL_URL, and the fresh table name the runner chose
 * (BENCH_TABLE). Ids come back as decimal text, as a careful hand-written store would ask.
 */
export function openMysqlPool() {
  const table = process.env.BENCH_TABLE;
  if (table === undefined || !/^bench_plants_\w+$/.test(table)) {
    throw new TypeError('BENCH_TABLE must name a fresh table bench_plants_…');
  }
  const pool = mysql.createPool({
    uri: process.env.MYSQL_URL ?? DEFAULT_MYSQL_URL,
    connectionLimit: POOL_SIZE,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  return {
    client: pool,
    table,
    async close() {
      await pool.query(
        `DROP TABLE IF EXISTS \`${table}\`, \`${table}_events\`, \`${table}_events_lease\``,
      );
      await pool.end();
    },
  };
}

// Baseline on MariaDB: the same job hand-written on Express 5 (express.json(), jose, type checks),
// stored with mysql2 as a competent developer would: one INSERT on the primary key, and on a
// duplicate the stored row read back and compared, on a Pool of the same size, in a fresh table.
import { createServer } from 'node:http';
import express from 'express5';
import { openMysqlPool } from './shared/databases.mjs';
import { handWrittenApp } from './shared/express-hand.mjs';
import { serve } from './shared/serve.mjs';

const { client: pool, table, close } = openMysqlPool();
await pool.query(
  `CREATE TABLE IF NOT EXISTS \`${table}\` (id BIGINT PRIMARY KEY, name MEDIUMTEXT NOT NULL, ` +
    'tag MEDIUMTEXT NULL, created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), ' +
    'created_by MEDIUMTEXT NULL) DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
);
const insert = `INSERT INTO \`${table}\` (id, name, tag, created_by) VALUES (?, ?, ?, ?)`;
const select = `SELECT name, tag FROM \`${table}\` WHERE id = ?`;

/** Stores the plant unless its id exists; false when the stored plant differs. */
async function savePlant({ id, name, tag }, subject) {
  try {
    await pool.query(insert, [id, name, tag ?? null, subject ?? null]);
    return true;
  } catch (error) {
    if (error.errno !== 1062) throw error;
  }
  const [[row]] = await pool.query(select, [id]);
  return row.name === name && (row.tag ?? undefined) === tag;
}

serve(createServer(handWrittenApp(express, savePlant)), close);

// Baseline on MariaDB: the same job hand-written on Express 5 (express.json(), jose, type checks),
// stored with mysql2 as a competent developer would: one INSERT on the primary key, and on a
// duplicate the stored row read back and compared, on a Pool of the same size, in a fresh table.
import { createServer } from 'node:http';
import express from 'express5';
import { openMysqlPool } from './shared/databases.mjs';
import { bearerToken, errors, isPlant, verifyToken } from './shared/hand-written.mjs';
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

// Written as Express apps often are: one middleware per step, each answering or passing on.
async function authenticate(req, res, next) {
  const token = bearerToken(req.get('authorization'));
  res.locals.claims = token === undefined ? undefined : await verifyToken(token);
  if (res.locals.claims !== undefined) next();
  else res.status(401).set('www-authenticate', 'Bearer').json(errors.unauthorized);
}

function validate(req, res, next) {
  if (isPlant(req.body)) next();
  else res.status(400).json(errors.invalid);
}

async function store(req, res, next) {
  try {
    const saved = await savePlant(req.body, res.locals.claims.sub);
    if (saved) res.json({ name: req.body.name, tag: req.body.tag });
    else res.status(409).json(errors.conflict);
  } catch (error) {
    next(error);
  }
}

const app = express();
app.post('/plants', express.json(), authenticate, validate, store);
serve(createServer(app), close);

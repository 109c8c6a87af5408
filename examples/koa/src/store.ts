import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PlantStore } from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';
import pg from 'pg';

/** The store the example writes to, and how to release its database at shutdown. */
export interface ExampleStore {
  readonly store: PlantStore;
  readonly close: () => Promise<void>;
}

/**
 * Where the example keeps its plants: a PostgreSQL server when `DATABASE_URL` is set (several app
 * instances can share it), otherwise PGlite, the embedded durable default, in a folder on disk
 * (`PLANTSTORE_DATA`, default `.data/plants`), so plants survive a restart with nothing installed.
 *
 * @returns the store, its table ensured
 */
export async function createStore(): Promise<ExampleStore> {
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 2_000 });
    const store = postgresStore({ client: pool });
    await store.ensureSchema();
    return { store, close: async () => void (await store.close(), await pool.end()) };
  }
  const dataDir = process.env.PLANTSTORE_DATA ?? '.data/plants';
  // PGlite creates its own folder but not the ones above it.
  mkdirSync(dirname(dataDir), { recursive: true });
  const db = new PGlite(dataDir);
  const store = postgresStore({ client: db });
  await store.ensureSchema();
  return { store, close: async () => void (await store.close(), await db.close()) };
}

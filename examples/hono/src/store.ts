import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PlantStore } from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';

/** The store the example writes to, and how to release its database at shutdown. */
export interface ExampleStore {
  readonly store: PlantStore;
  readonly close: () => Promise<void>;
}

/**
 * Where the example keeps its plants: PGlite, the embedded durable default, in a folder on disk, so
 * plants survive a restart with nothing installed. PGlite runs on Bun as it does on Node.js.
 *
 * @param dataDir - the folder (`PLANTSTORE_DATA`, default `.data/plants`)
 * @returns the store, its table ensured
 */
export async function createStore(dataDir: string): Promise<ExampleStore> {
  // PGlite creates its own folder but not the ones above it.
  await mkdir(dirname(dataDir), { recursive: true });
  const db = new PGlite(dataDir);
  const store = postgresStore({ client: db });
  await store.ensureSchema();
  return { store, close: async () => void (await store.close(), await db.close()) };
}

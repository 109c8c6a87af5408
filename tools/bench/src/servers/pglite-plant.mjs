// Ours on PGlite: createNodeHandler + postgresStore on PGlite in a temporary directory.
import { postgresStore } from '@plantstore/postgres';
import { openPglite } from './shared/databases.mjs';
import { serveNodeEntry } from './shared/node-entry.mjs';

const database = await openPglite();
const store = postgresStore({ client: database.client, table: database.table });
await store.ensureSchema();
serveNodeEntry(store, database);

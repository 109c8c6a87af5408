// Ours on PostgreSQL: createNodeHandler + postgresStore on a pg Pool, in a fresh table.
import { postgresStore } from '@plantstore/postgres';
import { openPool } from './shared/databases.mjs';
import { serveNodeEntry } from './shared/node-entry.mjs';

const database = openPool();
const store = postgresStore({ client: database.client, table: database.table });
await store.ensureSchema();
serveNodeEntry(store, database);

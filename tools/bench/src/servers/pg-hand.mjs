// Baseline on PostgreSQL: the same node entry and auth, with a hand-written store on a pg Pool of
// the same size, in a fresh table.
import { handWrittenStore, openPool } from './shared/databases.mjs';
import { serveNodeEntry } from './shared/node-entry.mjs';

const database = openPool();
serveNodeEntry(await handWrittenStore(database.client, database.table), database);

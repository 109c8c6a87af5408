// Baseline on PGlite: the same node entry and auth, with a hand-written store instead of ours.
import { handWrittenStore, openPglite } from './shared/databases.mjs';
import { serveNodeEntry } from './shared/node-entry.mjs';

const database = await openPglite();
serveNodeEntry(await handWrittenStore(database.client, database.table), database);

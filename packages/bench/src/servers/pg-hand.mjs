// Baseline on PostgreSQL: the same node entry and auth, with a hand-written store on a pg Pool of
// the same size, in a fresh table.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { handWrittenStore, openPool } from './shared/databases.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const database = openPool();
const store = await handWrittenStore(database.client, database.table);
const service = createPlantService({ store, auth: benchAuth() });
serve(createServer(createNodeHandler(service)), () => database.close());

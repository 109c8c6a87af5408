// Baseline on PGlite: the same node entry and auth, with a hand-written store instead of ours.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { handWrittenStore, openPglite } from './shared/databases.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const database = await openPglite();
const store = await handWrittenStore(database.client, database.table);
const service = createPlantService({ store, auth: benchAuth() });
serve(createServer(createNodeHandler(service)), () => database.close());

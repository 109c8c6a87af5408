// Ours on PGlite: createNodeHandler + postgresStore on PGlite in a temporary directory.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';
import { openPglite } from './shared/databases.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const database = await openPglite();
const store = postgresStore({ client: database.client, table: database.table });
await store.ensureSchema();
const service = createPlantService({ store, auth: benchAuth() });
serve(createServer(createNodeHandler(service)), async () => {
  await service.close();
  await database.close();
});

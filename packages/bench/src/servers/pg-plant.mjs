// Ours on PostgreSQL: createNodeHandler + postgresStore on a pg Pool, in a fresh table.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { postgresStore } from '@plantstore/postgres';
import { openPool } from './shared/databases.mjs';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const database = openPool();
const store = postgresStore({ client: database.client, table: database.table });
await store.ensureSchema();
const service = createPlantService({ store, auth: benchAuth() });
serve(createServer(createNodeHandler(service)), async () => {
  await service.close();
  await database.close();
});

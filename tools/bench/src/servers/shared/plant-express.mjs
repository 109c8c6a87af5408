// Ours on Express 5 with a store of a database package: plantRouter mounted at the root, the
// service warmed up when the runner asks, and on SIGTERM the service closed before the database.
import { createServer } from 'node:http';
import { plantRouter } from '@plantstore/express';
import express from 'express5';
import { benchAuth } from './plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './serve.mjs';

/**
 * Serves plantRouter on `store`.
 *
 * @param {import('@plantstore/core').PlantStore} store
 * @param {() => unknown} closeDatabase - run after the service closed
 */
export async function servePlantRouter(store, closeDatabase) {
  const app = express();
  const plants = plantRouter({ store, auth: benchAuth() });
  app.use(plants);
  await warmUpIfAsked(plants.service);
  serve(createServer(app), async () => {
    await plants.service.close();
    await closeDatabase();
  });
}

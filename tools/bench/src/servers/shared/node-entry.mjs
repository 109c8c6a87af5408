// The storage setups all serve the core's node entry with the bench's auth: only the store differs.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService } from '@plantstore/core';
import { benchAuth, benchTenant } from './plantstore-auth.mjs';
import { serve } from './serve.mjs';

/**
 * Serves `createNodeHandler` over a service of `store`, and on SIGTERM closes the service, then the
 * database.
 *
 * @param {import('@plantstore/core').PlantStore} store
 * @param {{ close(): Promise<void> }} database
 */
export function serveNodeEntry(store, database) {
  const service = createPlantService({ store, auth: benchAuth(), ...benchTenant() });
  serve(createServer(createNodeHandler(service)), async () => {
    await service.close();
    await database.close();
  });
}

import type { PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import express, { type Express } from 'express';

/**
 * The host app: `POST /plants` from Plantstore, on whatever store the service was given (here the
 * Redis store of ./redis-store), and a readiness check that asks the store too.
 *
 * @param plants - the plants service
 * @returns the Express app, not listening yet
 */
export function createApp(plants: PlantService): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(plantRouter(plants));
  app.get('/health', (_req, res) => {
    plants.ready().then(
      () => res.json({ status: 'ok' }),
      () => res.status(503).json({ status: 'unavailable' }),
    );
  });
  return app;
}

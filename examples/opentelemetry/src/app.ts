import type { PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import express, { type Express } from 'express';

/**
 * An Express 5 app with the plants route at `/api`, as in examples/express. Nothing here knows about
 * OpenTelemetry: the route publishes on its diagnostics channel, and `installPlantstoreTelemetry`
 * listens there.
 *
 * @param plants - the plants service
 * @returns the app, not listening yet
 */
export function createApp(plants: PlantService): Express {
  const app = express();
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/api', plantRouter(plants));
  return app;
}

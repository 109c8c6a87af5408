import type { PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import express, { type Express } from 'express';
import { apiDocument } from './api-document';
import { referencePage } from './reference-page';

/** The host's own catalogue, cheapest first, served by its own `GET /api/catalogue`. */
const catalogue = [
  { name: 'Boston fern', priceCents: 1250 },
  { name: 'Monstera', priceCents: 2900 },
];

/**
 * An Express 5 app with routes and an OpenAPI document of its own, the plants route mounted at
 * `/api`, the merged document at `/openapi.json` and its API reference page at `/docs`.
 *
 * @param plants - the plants route's service: its store and its bearer check
 * @returns the app, not listening yet
 * @example
 * ```ts
 * createApp(createPlantService({ store, auth })).listen(3000, '127.0.0.1');
 * ```
 */
export function createApp(plants: PlantService): Express {
  const app = express();

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/api/catalogue', (_req, res) => {
    res.json(catalogue);
  });

  // Built once at start-up, with the same mount path as the route below.
  const document = apiDocument('/api');
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use('/docs', referencePage({ documentUrl: '/openapi.json', title: document.info.title }));

  app.use('/api', plantRouter(plants));
  return app;
}

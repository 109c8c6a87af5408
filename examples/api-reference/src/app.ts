import type { PlantService } from '@plantstore/core';
import { addPlantRoute } from '@plantstore/core/openapi';
import { plantRouter } from '@plantstore/express';
import express, { type Express } from 'express';
import { hostDocument, type HostDocument } from './host-document';
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
 * @param ownDocument - the app's document before the route: {@link hostDocument}, or its 3.0 form
 * @returns the app, not listening yet
 * @example
 * ```ts
 * createApp(createPlantService({ store, auth })).listen(3000, '127.0.0.1');
 * ```
 */
export function createApp(plants: PlantService, ownDocument: HostDocument = hostDocument): Express {
  const app = express();

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/api/catalogue', (_req, res) => {
    res.json(catalogue);
  });

  // The app's one document: its own, plus the route at the same mount path as below, built once.
  // The route's bearer requirement goes on its operation alone: the app's own routes stay public.
  const document = addPlantRoute(ownDocument, { basePath: '/api' });
  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use('/docs', referencePage({ documentUrl: '/openapi.json', title: document.info.title }));

  app.use('/api', plantRouter(plants));
  return app;
}

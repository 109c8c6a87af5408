import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import { Hono } from 'hono';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing Hono application with routes of its own, into which the plants route is mounted at
 * `POST /api/plants`. The service must be created with `basePath: '/api'`: its fetch entry sees the
 * whole URL. The same app runs on Node.js (`@hono/node-server`) and on Bun (`Bun.serve`).
 *
 * @param plants - the plants route's service
 * @returns the app; serve `app.fetch`
 * @example
 * ```ts
 * serve({ fetch: createApp(plants).fetch, port: 3000 });
 * ```
 */
export function createApp(plants: PlantService): Hono {
  const app = new Hono();

  app.get('/health', (c) => c.json({ status: 'ok' }));

  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  app.get('/openapi.json', (c) => c.json(openapi));

  // The raw Request, body unread: the route reads it itself (exact int64 ids, size and time limits).
  // No body-reading middleware (c.req.json(), a validator) may run before it on this path.
  app.post('/api/plants', (c) => plants.fetch(c.req.raw));
  app.get('/api/plants', (c) => c.json(catalogue));

  app.notFound((c) =>
    c.json({ error: 404, message: `Nothing at ${c.req.method} ${c.req.path}.` }, 404),
  );
  return app;
}

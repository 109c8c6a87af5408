import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import { H3 } from 'h3';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing h3 v2 application with routes of its own, into which the plants route is mounted at
 * `POST /api/plants` with h3's router. The service must be created with `basePath: '/api'`: its
 * fetch entry sees the whole URL (`event.req` is the request as the server received it).
 *
 * @param plants - the plants route's service
 * @returns the app; serve it with h3's `serve(app)` or `toNodeHandler(app)`
 * @example
 * ```ts
 * serve(createApp(plants), { port: 3000 });
 * ```
 */
export function createApp(plants: PlantService): H3 {
  const app = new H3();

  app.get('/health', () => ({ status: 'ok' }));

  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  app.get('/openapi.json', () => openapi);

  // The request with its body unread: the route reads it itself (exact int64 ids, size and time
  // limits). No readBody() or bodyLimit() middleware may run before it on this path.
  app.post('/api/plants', (event) => plants.fetch(event.req));
  app.get('/api/plants', () => catalogue);

  // h3's own 404 is `{ status, message }`; this app answers in the route's Error shape instead.
  app.all('/**', (event) =>
    Response.json(
      { error: 404, message: `Nothing at ${event.req.method} ${event.url.pathname}.` },
      { status: 404 },
    ),
  );
  return app;
}

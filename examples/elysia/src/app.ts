import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import { Elysia } from 'elysia';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing Elysia application with routes of its own, into which the plants route is mounted at
 * `POST /api/plants`, with Elysia's body parsing off for it (`parse: 'none'`): the route reads the
 * body itself. The service must be created with `basePath: '/api'`: its fetch entry sees the whole
 * URL.
 *
 * @param plants - the plants route's service
 * @returns the app; `app.listen(3000)` on Bun
 * @example
 * ```ts
 * createApp(plants).listen({ port: 3000 });
 * ```
 */
export function createApp(plants: PlantService) {
  // The openapi document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  return (
    new Elysia()
      .get('/health', () => ({ status: 'ok' }))
      .get('/openapi.json', () => openapi)
      // The request with its body unread. Without `parse: 'none'`, Elysia parses a JSON body with
      // JSON.parse before the handler runs: the route would find nothing to read, and the ids past
      // 2^53 would already be rounded.
      .post('/api/plants', ({ request }) => plants.fetch(request), { parse: 'none' })
      .get('/api/plants', () => catalogue)
      // Elysia's own 404 is the text `NOT_FOUND`; this app answers in the route's Error shape.
      .all('*', ({ request, path }) =>
        Response.json(
          { error: 404, message: `Nothing at ${request.method} ${path}.` },
          { status: 404 },
        ),
      )
  );
}

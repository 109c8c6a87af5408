import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing Bun application, as the `routes` and `fetch` of `Bun.serve`, with the plants route at
 * `POST /api/plants` beside the app's own routes. The service must be created with
 * `basePath: '/api'`: its fetch entry sees the whole URL.
 *
 * @param plants - the plants route's service
 * @returns what to spread into `Bun.serve({ ... })`, with a port of your choosing
 * @example
 * ```ts
 * const server = Bun.serve({ ...createApp(plants), port: 3000 });
 * ```
 */
export function createApp(plants: PlantService) {
  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  return {
    routes: {
      '/health': Response.json({ status: 'ok' }),
      '/openapi.json': Response.json(openapi),
      '/api/plants': {
        GET: () => Response.json(catalogue),
        // The route reads the body itself (exact int64 ids, size and time limits) and answers.
        POST: (request: Request) => plants.fetch(request),
      },
    },
    fetch(request: Request): Response {
      const { pathname } = new URL(request.url);
      return Response.json(
        { error: 404, message: `Nothing at ${request.method} ${pathname}.` },
        { status: 404 },
      );
    },
  };
}

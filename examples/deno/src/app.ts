import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing Deno application, as the handler of `Deno.serve`, with the plants route at
 * `POST /api/plants` beside the app's own routes. The service must be created with
 * `basePath: '/api'`: its fetch entry sees the whole URL, and `matches` tells its requests.
 *
 * @param plants - the plants route's service
 * @returns the handler for `Deno.serve`
 * @example
 * ```ts
 * Deno.serve({ port: 3000 }, createApp(plants));
 * ```
 */
export function createApp(plants: PlantService): (request: Request) => Promise<Response> {
  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  return async (request) => {
    const { pathname } = new URL(request.url);
    // The route reads the body itself (exact int64 ids, size and time limits) and answers.
    if (plants.matches(request.method, pathname)) return plants.fetch(request);
    if (request.method === 'GET') {
      if (pathname === '/health') return Response.json({ status: 'ok' });
      if (pathname === '/openapi.json') return Response.json(openapi);
      if (pathname === '/api/plants') return Response.json(catalogue);
    }
    return Response.json(
      { error: 404, message: `Nothing at ${request.method} ${pathname}.` },
      { status: 404 },
    );
  };
}

import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';

/** The function's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * The function's routes as one fetch handler: the plants route at `POST /api/plants` (the service
 * is created with `basePath: '/api'`: it sees the whole path), and routes of its own beside it. An
 * API Gateway that sends every route to the function (`$default`, or `ANY /{proxy+}`) reaches them
 * all; one that sends only `POST /api/plants` reaches the route alone.
 *
 * @param plants - the plants route's service
 * @returns the fetch handler to give `lambdaHandler`
 * @example
 * ```ts
 * export const handler = lambdaHandler(createApp(plants));
 * ```
 */
export function createApp(plants: PlantService): (request: Request) => Promise<Response> {
  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  return async (request) => {
    const { pathname } = new URL(request.url);
    // The request with its body unread: the route reads the bytes (exact int64 ids, its limits).
    if (plants.matches(request.method, pathname)) return plants.fetch(request);
    if (request.method === 'GET' && pathname === '/api/plants') return Response.json(catalogue);
    if (request.method === 'GET' && pathname === '/health') return Response.json({ status: 'ok' });
    if (request.method === 'GET' && pathname === '/openapi.json') return Response.json(openapi);
    return Response.json(
      { error: 404, message: `Nothing at ${request.method} ${pathname}.` },
      { status: 404 },
    );
  };
}

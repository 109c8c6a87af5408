import { createOpenApiDocument } from '@plantstore/core/openapi';

// Built once, at `next build` (a GET handler that reads no request is prerendered).
export function GET(): Response {
  return Response.json(createOpenApiDocument({ basePath: '/api' }));
}

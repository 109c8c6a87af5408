import { createOpenApiDocument } from '@plantstore/core';
import { hostDocument } from './host-document';

/**
 * The app's one OpenAPI document: its own ({@link hostDocument}) with the plants route added at
 * `basePath`, its schemas, headers and bearer scheme. The route's `security` goes on its operation,
 * not on the whole document: the app's own routes stay public.
 *
 * @param basePath - where the app mounts the plants route
 * @returns a fresh document, ready for `res.json`
 * @example
 * ```ts
 * Object.keys(apiDocument('/api').paths); // ['/health', '/api/catalogue', '/api/plants']
 * ```
 */
export function apiDocument(basePath: string) {
  // Merged by hand until the core has a function for it: the names (Plant, NewPlant, Error,
  // bearerAuth) do not collide with this host's, which a real merge must check.
  const route = createOpenApiDocument({ basePath });
  const routePaths = Object.fromEntries(
    Object.entries(route.paths).map(([path, item]) => [
      path,
      { post: { ...item.post, security: route.security } },
    ]),
  );
  return {
    ...hostDocument,
    paths: { ...hostDocument.paths, ...routePaths },
    components: {
      schemas: { ...hostDocument.components.schemas, ...route.components.schemas },
      headers: route.components.headers,
      securitySchemes: route.components.securitySchemes,
    },
  };
}

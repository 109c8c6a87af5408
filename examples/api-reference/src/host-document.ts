/**
 * The app's own OpenAPI 3.1 document (valid as 3.0 too, but for its version), as a team writes (or generates) it for its own routes before
 * the plants route arrives: its paths, a tag per area and a schema of its own. `app.ts` adds the route
 * to it with `addPlantRoute`; this document knows nothing of the route.
 *
 * @example
 * ```ts
 * Object.keys(hostDocument.paths); // ['/health', '/api/catalogue']
 * ```
 */
export const hostDocument = {
  openapi: '3.1.0',
  info: {
    title: 'Greenhouse API',
    version: '2.4.0',
    description: "The greenhouse shop's API: its catalogue, its health check, and creating plants.",
  },
  tags: [
    { name: 'catalogue', description: 'What the shop sells' },
    { name: 'operations', description: 'For load balancers and monitoring' },
  ],
  paths: {
    '/health': {
      get: {
        tags: ['operations'],
        operationId: 'health',
        summary: 'Is the app up',
        responses: {
          '200': {
            description: 'The app answers',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['status'],
                  properties: { status: { type: 'string', enum: ['ok'] } },
                },
              },
            },
          },
        },
      },
    },
    '/api/catalogue': {
      get: {
        tags: ['catalogue'],
        operationId: 'listCatalogue',
        summary: 'List the plants for sale',
        responses: {
          '200': {
            description: 'Every plant on sale, cheapest first',
            content: {
              'application/json': {
                schema: { type: 'array', items: { $ref: '#/components/schemas/CatalogueItem' } },
              },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      CatalogueItem: {
        type: 'object',
        required: ['name', 'priceCents'],
        properties: {
          name: { type: 'string' },
          priceCents: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
} as const;

/**
 * The app's document as written for either OpenAPI version: Swagger-generating tools for Express
 * and Koa (swagger-jsdoc, tsoa) still write 3.0 by default, and the route's schemas follow the host's.
 *
 * @example
 * ```ts
 * const legacy: HostDocument = { ...hostDocument, openapi: '3.0.3' };
 * ```
 */
export type HostDocument = Omit<typeof hostDocument, 'openapi'> & {
  readonly openapi: '3.0.3' | '3.1.0';
};

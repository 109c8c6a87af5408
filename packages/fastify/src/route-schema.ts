import {
  type OpenApiHostDocument,
  openApiDocument,
  plantOperation,
} from '@plantstore/core/openapi';
import type { FastifyContextConfig } from 'fastify';

type Json = Readonly<Record<string, unknown>>;

interface Operation {
  readonly requestBody: { readonly description: string; readonly content: Record<string, Json> };
  readonly responses: Readonly<Record<string, Json>>;
  readonly [keyword: string]: unknown;
}

interface Header {
  readonly description?: string;
  readonly schema: Json;
}

const mapValues = <T>(map: Readonly<Record<string, T>>, convert: (value: T) => unknown) =>
  Object.fromEntries(Object.entries(map).map(([name, value]) => [name, convert(value)]));

/**
 * Writes an Operation Object the way a Fastify route schema carries it, as `@fastify/swagger`
 * reads it back: `body` is the request's JSON schema (its description the request body's),
 * `response` holds each status with its description, its headers as schemas and its `content`.
 */
function fastifySchema(operation: Json): Json {
  const { requestBody, responses, ...rest } = operation as Operation;
  return {
    ...rest,
    body: {
      ...(requestBody.content['application/json']?.['schema'] as Json),
      description: requestBody.description,
    },
    response: mapValues(responses, ({ headers, ...response }) => ({
      ...response,
      ...(headers === undefined
        ? {}
        : {
            // `@fastify/swagger` takes a header as a schema and lifts its description out.
            headers: mapValues(headers as Record<string, Header>, ({ description, schema }) => ({
              ...schema,
              ...(description === undefined ? {} : { description }),
            })),
          }),
    })),
  };
}

/** What `@fastify/swagger` hands a route's `swaggerTransform`. */
interface SwaggerTransformInput {
  readonly schema: object;
  readonly url: string;
  /** The OpenAPI document being built; absent in Swagger 2.0 mode. */
  readonly openapiObject?: object;
}

/**
 * The route's `schema` and `config.swaggerTransform`, so that `@fastify/swagger` lists the route
 * with its request body, every response and its security, with nothing for the host to do. The
 * schema is written for OpenAPI 3.1 with the route's `bearerAuth`; when the host's document is
 * built, the transform writes it again for that document's version, names the host's own HTTP
 * Bearer scheme if it has one, or adds `bearerAuth` to its security schemes.
 *
 * @param scopes - the scopes the route requires, for the operation's `security`
 * @param tag - the tag the operation is listed under, `plants` when undefined
 * @returns the route options to spread into the route
 */
export function routeSchema(scopes: readonly string[], tag?: string) {
  const options = { requiredScopes: scopes, tag };
  // Typed as Fastify's route config with the transform beside it: without @fastify/swagger's
  // declarations in the program, the config type holds only optional keys (our `guard`), and
  // TypeScript refuses an object that shares none of them.
  const config: FastifyContextConfig & { swaggerTransform(input: SwaggerTransformInput): unknown } =
    {
      swaggerTransform({ schema, url, openapiObject }: SwaggerTransformInput) {
        // Swagger 2.0 has no bearer scheme: the route is listed without its security.
        if (openapiObject === undefined) return { schema: { ...schema, security: undefined }, url };
        const document = openapiObject as OpenApiHostDocument;
        const { operation, securitySchemes } = plantOperation(document, options);
        const components = ((openapiObject as { components?: Json }).components ??= {});
        // The host's own schemes win: the operation names one of them when it has a bearer scheme.
        (components as { securitySchemes?: Json }).securitySchemes = {
          ...securitySchemes,
          ...(components['securitySchemes'] as Json | undefined),
        };
        return { schema: fastifySchema(operation), url };
      },
    };
  return { schema: fastifySchema(plantOperation(openApiDocument, options).operation), config };
}

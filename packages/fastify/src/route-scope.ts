import type { PlantService } from '@plantstore/core';
import type { BodySource } from '@plantstore/core/adapter';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answer } from './answer';
import type { HostLogger } from './host-logger';
import { routeSchema } from './route-schema';

const INVALID_MEDIA = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
const acceptAll = (): true => true;
const stringify = (data: unknown): string => JSON.stringify(data);

/**
 * Sets up the plugin's own scope: the request decorator, a content-type parser that reads nothing,
 * an error handler for the one error Fastify raises before the route, and `POST /plants`. None of
 * it reaches the host's other routes.
 *
 * @param scope - the encapsulated instance Fastify gives the plugin
 * @param service - the service that answers the route
 * @param scopes - the scopes the route requires, for its OpenAPI description
 * @param logger - the plugin's own logger, which each answer hands the core for `request.log`
 * @param tag - the tag its OpenAPI operation is listed under, `plants` when undefined
 * @throws Fastify's `FST_ERR_DEC_ALREADY_PRESENT` when the app already decorates `plantstore`
 */
export function routeScope(
  scope: FastifyInstance,
  service: PlantService,
  scopes: readonly string[],
  logger: HostLogger | undefined,
  tag?: string,
): void {
  const answerWith = (request: FastifyRequest, reply: FastifyReply, body: BodySource) =>
    answer(service, request, reply, body, logger?.of(request.log));
  scope.decorateRequest('plantstore', undefined);
  // Every media type, and none, reaches the handler as the unread stream, so the core
  // authenticates first and then judges the type, limit, time-out and bytes itself.
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (_request, payload, parsed) => parsed(null, payload));
  // Fastify 5 refuses a Content-Type it cannot parse (`json`, an empty one) before any parser, in
  // its own shape and before the token is checked; the core answers it as the contract says.
  scope.setErrorHandler((error: unknown, request, reply) => {
    const unparsable = error instanceof Error && 'code' in error && error.code === INVALID_MEDIA;
    // Anything else (a host hook's error on this route, say) goes on to the host's error handler.
    if (!unparsable) throw error;
    return answerWith(request, reply, request.raw);
  });
  scope.post<{ Body: BodySource | undefined }>(
    '/plants',
    {
      // The schema documents the route (for @fastify/swagger); it checks and shapes nothing: the
      // core checks every body itself (an exact int64 id, duplicate keys, its own messages), and
      // the core's answer is a string already. A host's error handler on this route keeps Fastify's
      // plain JSON.stringify, as on a route without a schema.
      ...routeSchema(scopes, tag),
      validatorCompiler: () => acceptAll,
      serializerCompiler: () => stringify,
    },
    (request, reply) => answerWith(request, reply, request.body ?? request.raw),
  );
}

import type { PlantService } from '@plantstore/core';
import {
  lingerOnClose,
  nodeHeaderReader,
  type PlantAnswer,
  resourceMetadataRoute,
} from '@plantstore/core/adapter';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';

/** The plugin {@link protectedResourceMetadata} returns, for `app.register` at the root. */
export type ProtectedResourceMetadataPlugin = FastifyPluginCallback;

const INVALID_MEDIA = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';

function send(reply: FastifyReply, answer: PlantAnswer): FastifyReply {
  lingerOnClose(reply.raw, answer);
  return reply.code(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * Makes a Fastify 4 or 5 plugin that serves the service's RFC 9728 protected-resource metadata:
 * GET and HEAD of `/.well-known/oauth-protected-resource` (and of the form suffixed with the
 * resource's path) answer 200 with the document, any other method 405 with `Allow: GET, HEAD`.
 * Register it at the root: the metadata lives at the host's root, so `register` with a `prefix`
 * fails. The plugin is encapsulated; its routes read no body, whatever its type.
 *
 * @param service - the service the route serves (`plantPlugin(…).service`), made with the
 *   `resourceMetadata` option, so that its challenges name this metadata (`resource_metadata`)
 * @returns the plugin
 * @throws TypeError at once when the service has no `resourceMetadata`
 * @example
 * ```ts
 * const plants = plantPlugin({ store, auth, publicUrl: 'https://api.example.com', resourceMetadata: true });
 * await app.register(protectedResourceMetadata(plants.service)); // GET /.well-known/oauth-protected-resource…
 * await app.register(plants, { prefix: '/api' }); // POST /api/plants
 * ```
 */
export function protectedResourceMetadata(service: PlantService): ProtectedResourceMetadataPlugin {
  const metadata = resourceMetadataRoute(service);
  const answer = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const found = metadata.answer(request.method, request.url, nodeHeaderReader(request.raw));
    // Routed here by the app's own leniency (ignoreTrailingSlash, caseSensitive: false): not ours.
    if (found === undefined) {
      reply.callNotFound();
      return reply;
    }
    return send(reply, found);
  };
  const plugin: FastifyPluginCallback = (scope, _registerOptions, done) => {
    if (scope.prefix !== '') {
      done(
        new TypeError(
          `Plantstore: register protectedResourceMetadata at the root, without a prefix: RFC 9728 metadata lives at ${metadata.paths.join(' and ')}; received the prefix ${scope.prefix}`,
        ),
      );
      return;
    }
    // A body sent with another method is never read: the answer is 405 whatever it holds.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, parsed) => parsed(null));
    // Fastify 5 refuses a Content-Type it cannot parse before any parser: still a 405 here.
    scope.setErrorHandler((error: unknown, request, reply) => {
      if (error instanceof Error && 'code' in error && error.code === INVALID_MEDIA) {
        return answer(request, reply);
      }
      throw error;
    });
    for (const path of metadata.paths) scope.all(path, answer);
    done();
  };
  return Object.assign(plugin, {
    [Symbol.for('plugin-meta')]: {
      name: '@plantstore/fastify/protected-resource-metadata',
      fastify: '^4.28.0 || 5.x',
    },
  });
}

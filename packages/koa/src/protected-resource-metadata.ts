import type { PlantService } from '@plantstore/core';
import { nodeHeaderReader, resourceMetadataRoute } from '@plantstore/core/adapter';
import type { Next, ParameterizedContext } from 'koa';
import type { PlantMiddleware } from './plant-routes';
import { writeAnswer } from './translate';

/**
 * Serves the service's RFC 9728 protected-resource metadata in a Koa 2 or 3 application: GET and
 * HEAD of `/.well-known/oauth-protected-resource` (and of the form suffixed with the resource's path)
 * answer 200 with the document, any other method 405 with `Allow: GET, HEAD`. Every other request
 * goes to `next()`. The whole path (`ctx.originalUrl`) is compared, so the metadata is answered at
 * the host's root only.
 *
 * @param service - the service the route serves, made with the `resourceMetadata` option, so that
 *   its challenges name this metadata (`resource_metadata`)
 * @returns the middleware
 * @throws TypeError at once when the service has no `resourceMetadata`
 * @example
 * ```ts
 * const plants = plantRoutes({ prefix: '/api', store, auth, publicUrl: 'https://api.example.com', resourceMetadata: true });
 * app.use(protectedResourceMetadata(plants.service)); // GET /.well-known/oauth-protected-resource…
 * app.use(plants); // POST /api/plants
 * ```
 */
export function protectedResourceMetadata(service: PlantService): PlantMiddleware {
  const metadata = resourceMetadataRoute(service);
  return async (ctx: ParameterizedContext, next: Next): Promise<void> => {
    const answer = metadata.answer(ctx.method, ctx.originalUrl, nodeHeaderReader(ctx.req));
    if (answer === undefined) await next();
    else writeAnswer(ctx, answer);
  };
}

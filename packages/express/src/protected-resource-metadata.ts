import type { PlantService } from '@plantstore/core';
import { nodeHeaderReader, resourceMetadataRoute, writeAnswer } from '@plantstore/core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Serves the service's RFC 9728 protected-resource metadata in an Express 4 or 5 application: GET
 * and HEAD of `/.well-known/oauth-protected-resource` (and of the form suffixed with the resource's
 * path) answer 200 with the document, any other method 405 with `Allow: GET, HEAD`. Every other
 * request goes on to `next()`. The whole path (`req.originalUrl`) is compared, so the metadata is
 * answered at the host's root only, wherever the handler is mounted: mount it with `app.use(…)`.
 *
 * @param service - the service the route serves, made with the `resourceMetadata` option, so that
 *   its challenges name this metadata (`resource_metadata`)
 * @returns the handler
 * @throws TypeError at once when the service has no `resourceMetadata`
 * @example
 * ```ts
 * const plants = createPlantService({ store, auth, publicUrl: 'https://api.example.com', resourceMetadata: true });
 * app.use(protectedResourceMetadata(plants)); // GET /.well-known/oauth-protected-resource…
 * app.use('/api', plantRouter(plants)); // POST /api/plants
 * ```
 */
export function protectedResourceMetadata(service: PlantService): RequestHandler {
  const metadata = resourceMetadataRoute(service);
  return (req: Request, res: Response, next: NextFunction): void => {
    const answer = metadata.answer(req.method, req.originalUrl, nodeHeaderReader(req));
    if (answer === undefined) next();
    else writeAnswer(res, answer);
  };
}

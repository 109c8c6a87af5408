import { targetPath } from '../auth/dpop/request-url';
import type { HeaderSource, PlantAnswer } from '../http/request';
import { describeValue, optionError } from '../options/check-options';
import { isPlantService, type PlantService } from './service';

/** The RFC 9728 metadata of one service, as an adapter mounts it at the host's root. */
export interface ResourceMetadataRoute {
  /** The well-known paths it answers, at the host's root. */
  readonly paths: readonly string[];
  /**
   * The answer to a request for one of {@link ResourceMetadataRoute.paths}: 200 with the document for
   * GET and HEAD, 405 with `Allow: GET, HEAD` for any other method; `undefined` for any other path,
   * which the host keeps.
   *
   * @param method - the request method
   * @param target - the request target as the client sent it (`req.originalUrl`, `ctx.originalUrl`),
   *   query included: the path is compared whole, so the metadata is answered only at the root
   * @param headers - the request's headers (`nodeHeaderReader(req)`): a request that declares a
   *   body is answered `Connection: close`, its body unread; without them the connection is kept
   */
  answer(method: string, target: string, headers?: HeaderSource): PlantAnswer | undefined;
}

/**
 * The metadata route of a service for an adapter's `protectedResourceMetadata(service)`, checked
 * when it is mounted: the service must have been made with `resourceMetadata` on.
 *
 * @param service - a service made by `createPlantService`
 * @returns the paths and their answers
 * @throws TypeError when `service` is not a service, or has no `resourceMetadata`
 * @example
 * ```ts
 * const metadata = resourceMetadataRoute(service);
 * app.use((req, res, next) => {
 *   const answer = metadata.answer(req.method, req.originalUrl, nodeHeaderReader(req));
 *   if (answer === undefined) next();
 *   else writeAnswer(res, answer);
 * });
 * ```
 */
export function resourceMetadataRoute(service: PlantService): ResourceMetadataRoute {
  if (!isPlantService(service)) {
    return optionError(
      'Plantstore',
      'service',
      'of protectedResourceMetadata(service) must be a service made by createPlantService',
      describeValue(service),
    );
  }
  const endpoint = service.resourceMetadata;
  if (endpoint === undefined) {
    return optionError(
      'Plantstore',
      'resourceMetadata',
      'must be set on the service (true, or { resource, … }) for protectedResourceMetadata(service) to serve RFC 9728 metadata',
      'nothing',
    );
  }
  return {
    paths: endpoint.paths,
    answer: (method, target, headers) =>
      endpoint.serves(targetPath(target)) ? endpoint.answer(method, headers) : undefined,
  };
}

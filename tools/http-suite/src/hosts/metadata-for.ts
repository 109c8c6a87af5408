import type { PlantService } from '@plantstore/core';

/**
 * The metadata handler for a route's service: `undefined` when the service serves no metadata.
 *
 * @param service - the route's service
 * @param factory - `protectedResourceMetadata` of the adapter, when the caller handed it in
 * @returns the handler to mount at the root
 * @throws Error when the service serves metadata but the target was not given the factory
 */
export function metadataFor<Handler>(
  service: PlantService,
  factory: ((service: PlantService) => Handler) | undefined,
): Handler | undefined {
  if (service.resourceMetadata === undefined) return undefined;
  if (factory === undefined) {
    throw new Error('This target was not given protectedResourceMetadata to mount the metadata.');
  }
  return factory(service);
}

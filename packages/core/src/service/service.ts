import { traceCreate } from './diagnostics';
import type { PlantService } from './plant-service';
import { routeService } from './route-service';
import { type PlantServiceOptions, resolveOptions } from './service-options';
import { warmUp } from './warm-up';

export type { PlantService } from './plant-service';
export { isPlantService } from './route-service';

/**
 * Creates the `POST /plants` route, framework-neutral. Options are checked now, so a misconfiguration
 * fails at start-up with a `TypeError` naming the option, never on the first request.
 *
 * @param options - the store, the auth and optional limits and hooks
 * @returns the service to mount with an adapter, or to serve through `fetch`
 * @throws TypeError when an option is missing or wrong
 * @example
 * ```ts
 * const service = createPlantService({
 *   store: memoryStore(),
 *   auth: jwtBearer({ jwksUri: 'https://example.eu.auth0.com/.well-known/jwks.json',
 *     issuer: 'https://example.eu.auth0.com/', audience: 'https://plants.example.com' }),
 * });
 * Bun.serve({ fetch: service.fetch });
 * ```
 */
export function createPlantService(options: PlantServiceOptions): PlantService {
  return routeService(resolveOptions(options), traceCreate, () => warmUp(sampleService));
}

/** The warm-up's service: the same route, on the warm-up's own options, traced by no one. */
function sampleService(options: PlantServiceOptions): PlantService {
  return routeService(
    resolveOptions(options),
    (handler) => (request) => handler(request, undefined),
    () => Promise.resolve(),
  );
}

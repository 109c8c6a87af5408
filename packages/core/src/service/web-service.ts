import { traceCreate } from './diagnostics';
import type { PlantService } from './plant-service';
import { routeService } from './route-service';
import { type PlantServiceOptions, resolveOptions } from './service-options';

// Nothing to warm up: the warm-up shapes its samples as Node requests, and these runtimes have no
// `node:stream`. With `nodejs_compat` a Worker has one, yet it serves `service.fetch`, whose Web
// requests the Node-shaped samples do not resemble (docs/reference/architecture.md, "Start-up warm-up").
const NOTHING_TO_WARM = (): Promise<void> => Promise.resolve();

/**
 * `createPlantService` as the Workers and Edge build of `@plantstore/core` exports it (the package's
 * `workerd`, `edge-light` and `worker` conditions): the same route, options and checks as the Node
 * build's, without the warm-up, which a Worker never runs and whose token signing and Node request
 * shapes would otherwise ride in every bundle. `warmUp()` resolves at once, and `ready()` waits for
 * the auth and the store alone.
 *
 * @param options - the store, the auth and optional limits and hooks
 * @returns the service, to serve through `fetch`
 * @throws TypeError when an option is missing or wrong
 * @example
 * ```ts
 * const service = createPlantService({ store: memoryStore(), auth: jwtBearer({ secret, issuer }) });
 * export default { fetch: (request: Request) => service.fetch(request) };
 * ```
 */
export function createPlantService(options: PlantServiceOptions): PlantService {
  return routeService(resolveOptions(options), traceCreate, NOTHING_TO_WARM);
}

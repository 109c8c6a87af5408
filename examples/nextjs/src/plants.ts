import { createPlantService, jwtBearer, memoryStore, type PlantService } from '@plantstore/core';

/**
 * The plants route of one runtime, built on its first request: `next build` imports every route
 * module to collect its configuration, and the identity provider's coordinates exist only when the
 * server runs (`PLANTSTORE_JWKS_URI`, `PLANTSTORE_ISSUER`, `PLANTSTORE_AUDIENCE`, set by you or by
 * instrumentation.ts's development issuer).
 *
 * The memory store keeps this example free of a database; in your app, a store of
 * `@plantstore/postgres` (Node.js runtime) or one that speaks fetch (Edge runtime).
 *
 * @param basePath - where the route file sits: `/api` for app/api/plants/route.ts
 * @returns a function giving the one service of this module
 * @example
 * ```ts
 * const plants = lazyPlantService('/api');
 * export const POST = (request: Request) => plants().fetch(request);
 * ```
 */
export function lazyPlantService(basePath: string): () => PlantService {
  let service: PlantService | undefined;
  return () =>
    (service ??= createPlantService({
      basePath,
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: required('PLANTSTORE_JWKS_URI'),
        issuer: required('PLANTSTORE_ISSUER'),
        audience: required('PLANTSTORE_AUDIENCE'),
      }),
    }));
}

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new TypeError(`${name} must be set.`);
  return value;
}

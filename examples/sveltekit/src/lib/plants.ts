import { createPlantService, jwtBearer, memoryStore, type PlantService } from '@plantstore/core';

/**
 * The plants route, built on its first request: the identity provider's coordinates exist only when
 * the server runs (`PLANTSTORE_JWKS_URI`, `PLANTSTORE_ISSUER`, `PLANTSTORE_AUDIENCE`, set by you or by
 * the development issuer of src/hooks.server.ts), not when `vite build` analyses the endpoints.
 *
 * The memory store keeps this example free of a database; in your app, a store of
 * `@plantstore/postgres`, `@plantstore/mysql` or `@plantstore/redis`.
 *
 * @param basePath - where the endpoint sits: `/api` for src/routes/api/plants/+server.ts
 * @returns a function giving the one service of this module
 * @example
 * ```ts
 * const plants = lazyPlantService('/api');
 * export const POST: RequestHandler = ({ request }) => plants().fetch(request);
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

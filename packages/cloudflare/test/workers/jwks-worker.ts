import { createPlantService, jwtBearer, memoryStore, type PlantService } from '@plantstore/core';

/** The bindings of `wrangler.toml`. */
interface Env {
  readonly JWKS_URI: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
}

// The route behind a provider's JWKS, what scripts/bundle-sizes.mjs weighs beside secret-worker.ts:
// the key set with its cache, back-off and 503 ride along; DPoP and certificate binding do not.
let plants: PlantService | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    plants ??= createPlantService({
      basePath: '/api',
      store: memoryStore(),
      auth: jwtBearer({ jwksUri: env.JWKS_URI, issuer: env.ISSUER, audience: env.AUDIENCE }),
    });
    return plants.fetch(request);
  },
};

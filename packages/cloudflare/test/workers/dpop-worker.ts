import {
  createPlantService,
  dpopBinding,
  jwtBearer,
  memoryReplayStore,
  memoryStore,
  type PlantService,
} from '@plantstore/core';

/** The bindings of `wrangler.toml`. */
interface Env {
  readonly JWKS_URI: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
  readonly PUBLIC_URL: string;
}

// The JWKS route with DPoP required, what scripts/bundle-sizes.mjs weighs beside jwks-worker.ts:
// what DPoP adds when a configuration asks for it.
let plants: PlantService | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    plants ??= createPlantService({
      basePath: '/api',
      publicUrl: env.PUBLIC_URL,
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: env.JWKS_URI,
        issuer: env.ISSUER,
        audience: env.AUDIENCE,
        dpop: dpopBinding({ required: true, replayStore: memoryReplayStore() }),
      }),
    });
    return plants.fetch(request);
  },
};

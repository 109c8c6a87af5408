import { createPlantService, jwtBearer, memoryStore, type PlantService } from '@plantstore/core';

/** The bindings of `wrangler.toml` (`[vars]` and secrets). */
interface Env {
  readonly JWT_SECRET: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
}

// The smallest Worker that mounts the route: what docs/cloudflare.md measures. Built on the first
// request, when the bindings are known, and kept for the isolate's life.
let plants: PlantService | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    plants ??= createPlantService({
      basePath: '/api',
      store: memoryStore(),
      auth: jwtBearer({ secret: env.JWT_SECRET, issuer: env.ISSUER, audience: env.AUDIENCE }),
    });
    return plants.fetch(request);
  },
};

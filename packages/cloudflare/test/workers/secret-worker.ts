import { createPlantService, jwtBearer, memoryStore, type PlantService } from '@plantstore/core';

/** The bindings of `wrangler.toml` (`[vars]` and secrets). */
interface Env {
  readonly JWT_SECRET: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
}

function serviceFor({ JWT_SECRET: secret, ISSUER: issuer, AUDIENCE: audience }: Env): PlantService {
  return createPlantService({
    basePath: '/api',
    store: memoryStore(),
    auth: jwtBearer({ secret, issuer, audience }),
  });
}

// The smallest Worker that mounts the route, what the bundle test measures beside the docs' one. The
// service is made on the first request, when the bindings are known, and kept for the isolate's life.
let plants: PlantService | undefined;

export default {
  fetch: (request: Request, env: Env): Promise<Response> =>
    (plants ??= serviceFor(env)).fetch(request),
};

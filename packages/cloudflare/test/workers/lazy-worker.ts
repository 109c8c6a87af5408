import type { PlantService } from '@plantstore/core';

/** The bindings of `wrangler.toml` that the JWKS Workers read. */
export interface JwksEnv {
  readonly JWKS_URI: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
  readonly PUBLIC_URL: string;
}

/** The key set, issuer and audience of `jwtBearer`, as the bindings name them. */
export const jwksOf = (env: JwksEnv) => ({
  jwksUri: env.JWKS_URI,
  issuer: env.ISSUER,
  audience: env.AUDIENCE,
});

/**
 * A Worker whose service is made on the first request, when the bindings are known, and kept for the
 * isolate's life: the one way the weighed Workers mount the route, so their bundles differ only in
 * the options they pass.
 */
export function lazyWorker<E>(serviceFor: (env: E) => PlantService): {
  fetch(request: Request, env: E): Promise<Response>;
} {
  let plants: PlantService | undefined;
  return { fetch: (request, env) => (plants ??= serviceFor(env)).fetch(request) };
}

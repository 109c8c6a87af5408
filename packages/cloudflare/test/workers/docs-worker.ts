// The Worker of docs/hosts/cloudflare-workers.md, as the page shows it: the route on D1, its DPoP proofs'
// replay store on Durable Objects. The bundle test measures what it weighs.
import { createPlantService, dpopBinding, jwtBearer, type PlantService } from '@plantstore/core';
import {
  d1Store,
  type D1DatabaseLike,
  durableObjectReplayStore,
  type DurableObjectNamespaceLike,
} from '@plantstore/cloudflare';

export { ReplayDurableObject } from '@plantstore/cloudflare';

interface Env {
  readonly DB: D1DatabaseLike;
  readonly REPLAY: DurableObjectNamespaceLike;
  readonly JWKS_URI: string;
  readonly ISSUER: string;
  readonly AUDIENCE: string;
  readonly PUBLIC_URL: string;
}

let plants: PlantService | undefined;

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    plants ??= createPlantService({
      basePath: '/api',
      publicUrl: env.PUBLIC_URL, // DPoP proofs name this URL, never the Host a client sends
      store: d1Store({ client: env.DB }),
      auth: jwtBearer({
        jwksUri: env.JWKS_URI,
        issuer: env.ISSUER,
        audience: env.AUDIENCE,
        dpop: dpopBinding({ replayStore: durableObjectReplayStore({ client: env.REPLAY }) }),
      }),
    });
    return plants.fetch(request);
  },
};

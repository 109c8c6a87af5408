import {
  createPlantService,
  dpopBinding,
  jwtBearer,
  memoryReplayStore,
  memoryStore,
} from '@plantstore/core';
import { jwksOf, lazyWorker, type JwksEnv } from './lazy-worker';

// The JWKS route with DPoP required, what tools/bundle-sizes/bundle-sizes.mjs weighs beside jwks-worker.ts:
// what DPoP adds when a configuration asks for it.
export default lazyWorker((env: JwksEnv) =>
  createPlantService({
    basePath: '/api',
    publicUrl: env.PUBLIC_URL,
    store: memoryStore(),
    auth: jwtBearer({
      ...jwksOf(env),
      dpop: dpopBinding({ required: true, replayStore: memoryReplayStore() }),
    }),
  }),
);

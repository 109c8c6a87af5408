import { createPlantService, jwtBearer, memoryStore } from '@plantstore/core';
import { jwksOf, lazyWorker, type JwksEnv } from './lazy-worker';

// The route behind a provider's JWKS, what tools/bundle-sizes/bundle-sizes.mjs weighs beside secret-worker.ts:
// the key set with its cache, back-off and 503 ride along; DPoP and certificate binding do not.
export default lazyWorker((env: JwksEnv) =>
  createPlantService({ basePath: '/api', store: memoryStore(), auth: jwtBearer(jwksOf(env)) }),
);

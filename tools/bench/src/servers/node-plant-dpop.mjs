// Ours with DPoP: createNodeHandler on node:http, every request a DPoP-bound token with a fresh ES256
// proof. The replay store holds every proof of the run: at the default bound (100,000 keys, each
// kept for the proof's 60 s window) a fast round would fill it and answer 503.
import { createServer } from 'node:http';
import {
  createNodeHandler,
  createPlantService,
  dpopBinding,
  jwtBearer,
  memoryReplayStore,
  memoryStore,
} from '@plantstore/core';
import { AUDIENCE, ISSUER, PUBLIC_URL, SECRET } from '../config.mjs';
import { serve } from './shared/serve.mjs';

const service = createPlantService({
  store: memoryStore(),
  auth: jwtBearer({
    secret: SECRET,
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ['HS256'],
    dpop: dpopBinding({ replayStore: memoryReplayStore({ max: 5_000_000 }) }),
  }),
  publicUrl: PUBLIC_URL,
});
serve(createServer(createNodeHandler(service)));

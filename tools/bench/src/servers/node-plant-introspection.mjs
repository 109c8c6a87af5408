// Ours: createNodeHandler on node:http, memoryStore, opaque tokens introspected (RFC 7662) at a
// local endpoint, the answers cached (the default): what a request with a known token costs.
import { createServer } from 'node:http';
import {
  createNodeHandler,
  createPlantService,
  memoryStore,
  tokenIntrospection,
} from '@plantstore/core';
import { AUDIENCE, ISSUER } from '../config.mjs';
import { startIntrospectionEndpoint } from './shared/introspection-endpoint.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const endpoint = await startIntrospectionEndpoint();
const auth = tokenIntrospection({
  issuer: ISSUER,
  endpoint: endpoint.url,
  clientId: 'bench-api',
  clientSecret: 'bench-api-secret',
  audience: AUDIENCE,
});
const service = createPlantService({ store: memoryStore(), auth });
await warmUpIfAsked(service);
serve(createServer(createNodeHandler(service)), endpoint.close);

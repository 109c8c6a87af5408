// Ours: createNodeHandler on node:http, memoryStore.
import { createServer } from 'node:http';
import { createNodeHandler, createPlantService, memoryStore } from '@plantstore/core';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const service = createPlantService({ store: memoryStore(), auth: benchAuth() });
await warmUpIfAsked(service);
serve(createServer(createNodeHandler(service)));

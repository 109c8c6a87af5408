// Ours on Bun and Deno: the core's fetch entry as the runtime server's whole handler, memoryStore.
import { createPlantService, memoryStore } from '@plantstore/core';
import { benchAuth } from './plantstore-auth.mjs';
import { serveFetch } from './fetch-serve.mjs';

const service = createPlantService({ store: memoryStore(), auth: benchAuth() });
serveFetch((request) => service.fetch(request));

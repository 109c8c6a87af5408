// Ours: plantRoutes on Koa 3, mounted on a bare app (it reads the body itself), memoryStore.
import { createServer } from 'node:http';
import { memoryStore } from '@plantstore/core';
import { plantRoutes } from '@plantstore/koa';
import Koa from 'koa3';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const app = new Koa();
const plants = plantRoutes({ store: memoryStore(), auth: benchAuth() });
app.use(plants);
await warmUpIfAsked(plants.service);
serve(createServer(app.callback()));

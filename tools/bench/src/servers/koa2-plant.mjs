// Ours: plantRoutes on Koa 2, mounted on a bare app (it reads the body itself), memoryStore.
import { createServer } from 'node:http';
import { memoryStore } from '@plantstore/core';
import { plantRoutes } from '@plantstore/koa';
import Koa from 'koa2';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const app = new Koa();
app.use(plantRoutes({ store: memoryStore(), auth: benchAuth() }));
serve(createServer(app.callback()));

// Ours: plantRouter on Express 5, mounted on a bare app (it reads the body itself), memoryStore.
import { createServer } from 'node:http';
import { memoryStore } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import express from 'express5';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const app = express();
const plants = plantRouter({ store: memoryStore(), auth: benchAuth() });
app.use(plants);
await warmUpIfAsked(plants.service);
serve(createServer(app));

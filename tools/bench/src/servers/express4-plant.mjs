// Ours: plantRouter on Express 4, mounted on a bare app (it reads the body itself), memoryStore.
import { createServer } from 'node:http';
import { memoryStore } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import express from 'express4';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve } from './shared/serve.mjs';

const app = express();
app.use(plantRouter({ store: memoryStore(), auth: benchAuth() }));
serve(createServer(app));

// Ours: a guarded GET on Express 5, `guard` of @plantstore/express made from the route's service.
import { createServer } from 'node:http';
import { memoryStore } from '@plantstore/core';
import { guard, plantRouter } from '@plantstore/express';
import express from 'express5';
import { benchAuth } from './shared/plantstore-auth.mjs';
import { serve, warmUpIfAsked } from './shared/serve.mjs';

const app = express();
const plants = plantRouter({ store: memoryStore(), auth: benchAuth(), logger: false });
app.use(plants);
app.get('/things', guard(plants.service), (req, res) => {
  res.json({ subject: req.auth.subject });
});
await warmUpIfAsked(plants.service);
serve(createServer(app));

// Baseline: the same job hand-written on Express 5: express.json(), jose, type checks, a Map.
import { createServer } from 'node:http';
import express from 'express5';
import { errors, expressChecks, savePlant } from './shared/hand-written.mjs';
import { serve } from './shared/serve.mjs';

const plants = new Map();
const app = express();
app.use(express.json());
app.post('/plants', async (req, res) => {
  if ((await expressChecks(req, res)) === undefined) return;
  if (!savePlant(plants, req.body)) {
    res.status(409).json(errors.conflict);
    return;
  }
  res.json({ name: req.body.name, tag: req.body.tag });
});
serve(createServer(app));

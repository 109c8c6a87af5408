// Baseline: the same job hand-written on Express 5: express.json(), jose, type checks, a Map.
import { createServer } from 'node:http';
import express from 'express5';
import { bearerToken, errors, isPlant, savePlant, verifyToken } from './shared/hand-written.mjs';
import { serve } from './shared/serve.mjs';

const plants = new Map();
const app = express();
app.use(express.json());
app.post('/plants', async (req, res) => {
  const token = bearerToken(req.get('authorization'));
  const claims = token === undefined ? undefined : await verifyToken(token);
  if (claims === undefined) {
    res.status(401).set('www-authenticate', 'Bearer').json(errors.unauthorized);
    return;
  }
  if (!isPlant(req.body)) {
    res.status(400).json(errors.invalid);
    return;
  }
  if (!savePlant(plants, req.body)) {
    res.status(409).json(errors.conflict);
    return;
  }
  res.json({ name: req.body.name, tag: req.body.tag });
});
serve(createServer(app));

// Baseline: Express 4 + express.json(), answering the plant back. No auth, no validation, no store.
import { createServer } from 'node:http';
import express from 'express4';
import { serve } from './shared/serve.mjs';

const app = express();
app.post('/plants', express.json(), (req, res) => {
  const { name, tag } = req.body;
  res.json({ name, tag });
});
serve(createServer(app));

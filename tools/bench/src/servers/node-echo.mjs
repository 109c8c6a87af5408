// Baseline: bare node:http reading and parsing the body, answering the plant back. Nothing else.
import { createServer } from 'node:http';
import { serve } from './shared/serve.mjs';

serve(
  createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/plants') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let plant;
      try {
        plant = JSON.parse(Buffer.concat(chunks).toString());
      } catch {
        res.writeHead(400).end();
        return;
      }
      const body = JSON.stringify({ name: plant.name, tag: plant.tag });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  }),
);

import { createServer, type Server } from 'node:http';
import { createNodeHandler, type PlantService } from '@plantstore/core';

/**
 * An existing node:http application: a health check of its own, and the plants route mounted in
 * front of it through `createNodeHandler`, which passes every other request on.
 */
export function createApp(plants: PlantService): Server {
  const route = createNodeHandler(plants);
  return createServer((req, res) =>
    route(req, res, () => {
      if (req.method === 'GET' && req.url === '/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":404,"message":"Not found"}');
    }),
  );
}

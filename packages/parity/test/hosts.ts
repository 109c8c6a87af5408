import { createServer } from 'node:http';
import { createNodeHandler, createPlantService, type PlantServiceOptions } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantPlugin } from '@plantstore/fastify';
import { type ContractHost, listen } from '@plantstore/http-suite';
import { plantRoutes } from '@plantstore/koa';
import express from 'express';
import Fastify from 'fastify';
import Koa from 'koa';

/** Starts the route in one host, mounted at `/api`. */
export type Start = (options: PlantServiceOptions) => Promise<ContractHost>;

/** Every adapter and entry, each mounted at `/api`. */
export const hosts: Readonly<Record<string, Start>> = {
  'Express 5': (options) => {
    const app = express();
    app.use('/api', plantRouter(options));
    return listen(createServer(app), '/api');
  },
  'Koa 3': (options) => {
    const app = new Koa();
    app.use(plantRoutes({ ...options, prefix: '/api' }));
    const callback = app.callback();
    return listen(
      createServer((req, res) => void callback(req, res)),
      '/api',
    );
  },
  'Fastify 5': async (options) => {
    const app = Fastify();
    await app.register(plantPlugin(options), { prefix: '/api' });
    await app.ready();
    return listen(app.server, '/api');
  },
  'node:http': (options) =>
    listen(
      createServer(createNodeHandler(createPlantService({ ...options, basePath: '/api' }))),
      '/api',
    ),
};

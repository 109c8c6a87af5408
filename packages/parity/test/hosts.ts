import { type PlantServiceOptions } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantPlugin } from '@plantstore/fastify';
import { type ContractTarget, listen } from '@plantstore/http-suite';
import {
  EXPRESS_AT_PREFIX,
  EXPRESS_MAJORS,
  expressTarget,
  KOA_AT_API,
  KOA_MAJORS,
  koaTarget,
  nodeHandlerTarget,
} from '@plantstore/http-suite/hosts';
import { plantRoutes } from '@plantstore/koa';
import Fastify from 'fastify';

const fastifyTarget: ContractTarget = {
  passesOn: true,
  async start(options: PlantServiceOptions) {
    const app = Fastify();
    await app.register(plantPlugin(options), { prefix: '/api' });
    app.all('/*', (request, reply) => reply.send(`host:${request.method} ${request.url}`));
    await app.ready();
    return listen(app.server, '/api');
  },
};

/** Every adapter and entry, each with the route under a prefix: the kit's hosts, and Fastify 5. */
export const hosts: Readonly<Record<string, ContractTarget>> = {
  'Express 5': expressTarget(EXPRESS_MAJORS['Express 5'], plantRouter, {
    mounting: EXPRESS_AT_PREFIX,
  }),
  'Koa 3': koaTarget(KOA_MAJORS['Koa 3'], plantRoutes, KOA_AT_API),
  'Fastify 5': fastifyTarget,
  'node:http': nodeHandlerTarget(true),
};

import type { RequestListener } from 'node:http';
import { createNodeHandler, type PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantPlugin } from '@plantstore/fastify';
import {
  EXPRESS_MAJORS,
  expressHostApp,
  FASTIFY_MAJORS,
  fastifyListener,
  type HostHooks,
  KOA_AT_ROOT,
  KOA_MAJORS,
  koaHostApp,
  nodeListener,
} from '@plantstore/http-suite/hosts';
import { plantRoutes } from '@plantstore/koa';

/** The adapters every fault scenario and the soak run against, each on its current major. */
export const ADAPTERS = ['Express 5', 'Koa 3'] as const;

/** One of {@link ADAPTERS}. */
export type Adapter = (typeof ADAPTERS)[number];

/** The hosts the hostile catalog and the token attacks run against: every adapter, both majors. */
export const HOSTILE_HOSTS = [
  'Express 4',
  'Express 5',
  'Koa 2',
  'Koa 3',
  'Fastify 4',
  'Fastify 5',
  'node:http',
] as const;

/** One of {@link HOSTILE_HOSTS}. */
export type HostName = (typeof HOSTILE_HOSTS)[number];

/**
 * The host application a real user would write, from the test kit: its own `GET /health`, the plant
 * route mounted at the root, a catch-all and error handling of its own, reported to `hooks` (so a
 * scenario can tell whether anything ever reached the host instead of being answered by the route).
 *
 * @param adapter - Express 5 with `plantRouter`, or Koa 3 with `plantRoutes`
 * @param service - the route's service
 * @param hooks - told of every error the host framework itself sees, and of requests passed on
 * @returns the listener for `http.createServer`
 */
export function adapterApp(
  adapter: Adapter,
  service: PlantService,
  hooks: HostHooks,
): RequestListener {
  if (adapter === 'Express 5') {
    return expressHostApp(EXPRESS_MAJORS['Express 5'], plantRouter(service), { hooks });
  }
  const { app } = koaHostApp(
    KOA_MAJORS['Koa 3'],
    (host) => KOA_AT_ROOT.mount(host, () => plantRoutes(service)),
    hooks,
  );
  return nodeListener(app);
}

/**
 * The host application of any of {@link HOSTILE_HOSTS}, as {@link adapterApp} builds it: the route at
 * the root, a catch-all and error handling of the host's own. `node:http` is `createNodeHandler`
 * with a `next` that answers `host:<METHOD> <path>`.
 *
 * @param name - the host
 * @param service - the route's service
 * @param hooks - told of every error the host framework itself sees, and of requests passed on
 * @returns the listener for `http.createServer`, once the app is ready
 */
export async function hostListener(
  name: HostName,
  service: PlantService,
  hooks: HostHooks,
): Promise<RequestListener> {
  switch (name) {
    case 'Express 4':
    case 'Express 5':
      return expressHostApp(EXPRESS_MAJORS[name], plantRouter(service), { hooks });
    case 'Koa 2':
    case 'Koa 3':
      return nodeListener(
        koaHostApp(
          KOA_MAJORS[name],
          (host) => KOA_AT_ROOT.mount(host, () => plantRoutes(service)),
          hooks,
        ).app,
      );
    case 'Fastify 4':
    case 'Fastify 5':
      return fastifyListener(FASTIFY_MAJORS[name], plantPlugin(service), { hooks });
    case 'node:http': {
      const handler = createNodeHandler(service);
      return (req, res) =>
        handler(req, res, () => {
          const passed = `${req.method} ${req.url?.split('?')[0] ?? ''}`;
          hooks.onPassedOn?.(passed);
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(`host:${passed}`);
        });
    }
  }
}

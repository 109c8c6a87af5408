import type { RequestListener } from 'node:http';
import type { PlantServiceOptions } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { plantRoutes } from '@plantstore/koa';
import express, { type ErrorRequestHandler } from 'express';
import Koa from 'koa';
import type { Adapter } from './host-config';

/** A host application: the request listener, and its close that releases the route's service. */
export interface HostApp {
  readonly listener: RequestListener;
  /** Warms the key set and the store's connection (`service.ready()`). */
  ready(): Promise<void>;
  /** Releases what the route's service holds (`service.close()`). */
  close(): Promise<void>;
}

/**
 * Builds the host application a real user would write: its own `GET /health` route, the plant route
 * mounted at the root, and an error handler of its own (counted, so a scenario can tell whether a
 * fault ever reached the host instead of being answered by the route).
 *
 * @param adapter - Express 5 with `plantRouter`, or Koa 3 with `plantRoutes`
 * @param options - the route's options
 * @param onHostError - called for every error the host framework itself sees
 * @returns the listener for `http.createServer`
 */
export function buildApp(
  adapter: Adapter,
  options: Omit<PlantServiceOptions, 'basePath'>,
  onHostError: (error: unknown) => void,
): HostApp {
  if (adapter === 'express') {
    const app = express();
    const route = plantRouter(options);
    app.get('/health', (_req, res) => {
      res.type('text/plain').send('ok');
    });
    app.use(route);
    const errors: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
      onHostError(error);
      if (!res.headersSent) res.status(500).type('text/plain').send('host error');
    };
    app.use(errors);
    return {
      listener: app,
      ready: () => route.service.ready(),
      close: () => route.service.close(),
    };
  }
  const app = new Koa();
  const route = plantRoutes(options);
  app.on('error', onHostError);
  app.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/health') {
      ctx.type = 'text/plain';
      ctx.body = 'ok';
      return;
    }
    await next();
  });
  app.use(route);
  const callback = app.callback();
  return {
    listener: (req, res) => {
      void callback(req, res);
    },
    ready: () => route.service.ready(),
    close: () => route.service.close(),
  };
}

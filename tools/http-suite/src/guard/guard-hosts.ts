import { Readable } from 'node:stream';
import { createPlantService, type GuardOptions, type PlantService, guard } from '@plantstore/core';
import type { RequestHandler } from 'express';
import Router from '@koa/router';
import type Koa from 'koa';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ExpressFactory, PlantRouterFactory } from '../hosts/express-hosts';
import { type FastifyFactory, type PlantPluginFactory, startFastify } from '../hosts/fastify-hosts';
import { type KoaClass, nodeListener, type PlantRoutesFactory } from '../hosts/koa-hosts';
import { listen } from '../hosts/listen';
import { ADMIN_GUARD, type GuardTarget, guardedBody, readAll } from './guard-target';

/** `guard` of `@plantstore/express`, handed in by the caller. */
export type ExpressGuardFactory = (service: PlantService, options?: GuardOptions) => RequestHandler;

/**
 * The guarded routes on one Express major, at `/api`: the route through `app.use('/api', …)`, the
 * guarded ones in an `express.Router()` mounted there too.
 *
 * @param express - the `express` function of one major
 * @param adapter - `plantRouter` and `guard` of `@plantstore/express`
 * @returns the target
 */
export function expressGuardTarget(
  express: ExpressFactory,
  adapter: { readonly plantRouter: PlantRouterFactory; readonly guard: ExpressGuardFactory },
): GuardTarget {
  return {
    start(options) {
      const plants = adapter.plantRouter(options);
      const app = express();
      const router = express.Router();
      const answer: RequestHandler = (req, res, next) => {
        readAll(req).then((bytes) => {
          const subject = (req as { auth?: { subject?: string } }).auth?.subject;
          res.type('application/json').send(guardedBody(req.method, subject, bytes));
        }, next);
      };
      router.get('/things', adapter.guard(plants.service), answer);
      router.delete('/things/:id', adapter.guard(plants.service), answer);
      router.get('/admin', adapter.guard(plants.service, ADMIN_GUARD), answer);
      app.use('/api', plants, router);
      return listen(app, '/api');
    },
  };
}

/**
 * The guarded routes on the fetch entry, at `/api`: `service.fetch` for the plant route, `guard`
 * of `@plantstore/core` for the others, served through the plainest `Request` bridge.
 */
export const fetchGuardTarget: GuardTarget = {
  start(options) {
    const service = createPlantService({ ...options, basePath: '/api' });
    const open = guard(service);
    const admin = guard(service, ADMIN_GUARD);
    const handle = async (request: Request): Promise<Response> => {
      const { pathname } = new URL(request.url);
      if (pathname === '/api/plants') return service.fetch(request);
      const check = pathname === '/api/admin' ? admin : open;
      const { principal, response } = await check(request);
      if (response !== undefined) return response;
      const bytes = new Uint8Array(await request.arrayBuffer());
      return new Response(guardedBody(request.method, principal.subject, bytes), {
        headers: { 'content-type': 'application/json' },
      });
    };
    return listen((req, res) => {
      const headers = new Headers();
      for (let index = 0; index < req.rawHeaders.length; index += 2) {
        headers.append(req.rawHeaders[index] as string, req.rawHeaders[index + 1] as string);
      }
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method ?? 'GET',
        headers,
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
        duplex: 'half',
      });
      void handle(request).then(async (response) => {
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(await response.text());
      });
    }, '/api');
  },
};

/** `guard` of `@plantstore/koa`, handed in by the caller. */
export type KoaGuardFactory = (service: PlantService, options?: GuardOptions) => Koa.Middleware;

/**
 * The guarded routes on one Koa major, at `/api`: the route through `app.use`, the guarded ones on
 * a `@koa/router` with the prefix `/api`.
 *
 * @param Koa - the Koa class of one major
 * @param adapter - `plantRoutes` and `guard` of `@plantstore/koa`
 * @returns the target
 */
export function koaGuardTarget(
  Koa: KoaClass,
  adapter: { readonly plantRoutes: PlantRoutesFactory; readonly guard: KoaGuardFactory },
): GuardTarget {
  return {
    start(options) {
      const plants = adapter.plantRoutes({ ...options, prefix: '/api' });
      const app = new Koa();
      const router = new Router({ prefix: '/api' });
      const answer: Koa.Middleware = async (ctx) => {
        const bytes = await readAll(ctx.req);
        const subject = (ctx.state as { auth?: { subject?: string } }).auth?.subject;
        ctx.type = 'application/json';
        ctx.body = guardedBody(ctx.method, subject, bytes);
      };
      router.get('/things', adapter.guard(plants.service), answer);
      router.delete('/things/:id', adapter.guard(plants.service), answer);
      router.get('/admin', adapter.guard(plants.service, ADMIN_GUARD), answer);
      app.use(plants);
      app.use(router.routes());
      return listen(nodeListener(app), '/api');
    },
  };
}

/** `guard` of `@plantstore/fastify`, handed in by the caller. */
export type FastifyGuardFactory = (
  service: PlantService,
  options?: GuardOptions,
) => (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * The guarded routes on one Fastify major, at `/api`: the plugin registered with that prefix; an
 * encapsulated plugin whose `onRequest` hook guards `GET /things` and, through its route
 * `config.guard`, `GET /admin`; and `DELETE /things/:id` guarded by its own route-level hook. The
 * guarded scopes parse every body as bytes, so the handlers answer what arrived.
 *
 * @param fastify - the `fastify` function of one major
 * @param adapter - `plantPlugin` and `guard` of `@plantstore/fastify`
 * @returns the target
 */
export function fastifyGuardTarget(
  fastify: FastifyFactory,
  adapter: { readonly plantPlugin: PlantPluginFactory; readonly guard: FastifyGuardFactory },
): GuardTarget {
  return {
    async start(options) {
      const plants = adapter.plantPlugin(options);
      const app = fastify();
      await app.register(plants, { prefix: '/api' });
      const answer = (request: FastifyRequest) => {
        const bytes = request.body instanceof Uint8Array ? request.body : new Uint8Array();
        const subject = (request as { auth?: { subject?: string } }).auth?.subject;
        return Promise.resolve(JSON.parse(guardedBody(request.method, subject, bytes)) as unknown);
      };
      const bytesOnly = (scope: FastifyInstance) => {
        scope.removeAllContentTypeParsers();
        scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
          done(null, body);
        });
      };
      await app.register(
        (scope, _options, done) => {
          bytesOnly(scope);
          scope.addHook('onRequest', adapter.guard(plants.service));
          scope.get('/things', answer);
          scope.get('/admin', { config: { guard: ADMIN_GUARD } }, answer);
          done();
        },
        { prefix: '/api' },
      );
      await app.register(
        (scope, _options, done) => {
          bytesOnly(scope);
          scope.delete('/things/:id', { onRequest: adapter.guard(plants.service) }, answer);
          done();
        },
        { prefix: '/api' },
      );
      return startFastify(app, '/api');
    },
  };
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from '@koa/bodyparser';
import Router from '@koa/router';
import type { PlantService, PlantServiceOptions } from '@plantstore/core';
import type Koa from 'koa';
import koaBodyParser from 'koa-bodyparser';
import type { HostHooks } from './host-hooks';
import { listen } from './listen';
import { loadMajors } from './majors';
import { metadataFor } from './metadata-for';
import type { ContractTarget } from './target';

/** The Koa class of either major (both are typed by `@types/koa`). */
export type KoaClass = typeof Koa;

/** Both installed Koa majors, by name. */
export const KOA_MAJORS = loadMajors<KoaClass>()({ 'Koa 2': 'koa2', 'Koa 3': 'koa3' });

/** One of {@link KOA_MAJORS}. */
export type KoaMajor = keyof typeof KOA_MAJORS;

/** The route as `plantRoutes` of `@plantstore/koa` returns it: middleware, and a router handler. */
export type KoaRoute = Koa.Middleware & {
  readonly handler: Koa.Middleware;
  readonly service: PlantService;
};

/** The options of `plantRoutes`: the service's, with `prefix` for `basePath`. */
export type KoaRouteOptions = Omit<PlantServiceOptions, 'basePath'> & { readonly prefix?: string };

/**
 * `plantRoutes` of `@plantstore/koa`, handed in by the caller: the kit does not depend on the
 * adapters it hosts (their own tests depend on the kit).
 */
export type PlantRoutesFactory = (options: KoaRouteOptions) => KoaRoute;

/** `protectedResourceMetadata` of `@plantstore/koa`, handed in by the caller likewise. */
export type KoaMetadataFactory = (service: PlantService) => Koa.Middleware;

/** Builds the route, under a prefix when given one. */
export type KoaRouteAt = (prefix?: string) => KoaRoute;

/** One way a host mounts the route. */
export interface KoaMounting {
  readonly name: string;
  /** A body parser reads the body before the route. */
  readonly parserFirst?: boolean;
  /** Mounts the route into the app and says where, e.g. `'/api'` (`''` at the root). */
  mount(app: Koa, routeAt: KoaRouteAt): string;
}

/** The route mounted with `app.use` under the prefix `/api`. */
export const KOA_AT_API: KoaMounting = {
  name: 'app.use at /api',
  mount: (app, routeAt) => {
    app.use(routeAt('/api'));
    return '/api';
  },
};

/** The route mounted with `app.use` at the root, without a prefix. */
export const KOA_AT_ROOT: KoaMounting = {
  name: 'app.use without a prefix',
  mount: (app, routeAt) => {
    app.use(routeAt());
    return '';
  },
};

/** The mountings the docs describe, the last two behind a host body parser. */
export const KOA_MOUNTINGS: readonly KoaMounting[] = [
  KOA_AT_API,
  KOA_AT_ROOT,
  {
    name: 'router.post on an @koa/router with prefix /v1',
    mount: (app, routeAt) => {
      const router = new Router({ prefix: '/v1' });
      router.post('/plants', routeAt().handler);
      app.use(router.routes());
      return '/v1';
    },
  },
  ...(
    [
      ['@koa/bodyparser', () => bodyParser()],
      ['koa-bodyparser', () => koaBodyParser()],
    ] as const
  ).map(([parser, create]): KoaMounting => ({
    name: `app.use at /api after ${parser}`,
    parserFirst: true,
    mount: (app, routeAt) => {
      app.use(create());
      return KOA_AT_API.mount(app, routeAt);
    },
  })),
];

/**
 * A `node:http` listener for a Koa app (Koa's callback returns a promise it never rejects).
 *
 * @param app - the app
 * @returns the listener
 */
export function nodeListener(app: Koa): (req: IncomingMessage, res: ServerResponse) => void {
  const callback = app.callback();
  return (req, res) => void callback(req, res);
}

/**
 * A host app as a user writes one: an upstream middleware that observes every answer and decorates
 * it (`x-observed`), its own `GET /health`, the route mounted by `mount`, then a catch-all answering
 * `host:<METHOD> <path>` as the contract suite expects of a host that passes requests on.
 *
 * @param KoaApp - the Koa class of one major
 * @param mount - mounts the route and says where
 * @param hooks - told of errors, passed-on requests and every answer
 * @returns the app and where the route is mounted
 * @example
 * const { app } = koaHostApp(KOA_MAJORS['Koa 3'], (app) => (app.use(plantRoutes(options)), ''));
 */
export function koaHostApp(
  KoaApp: KoaClass,
  mount: (app: Koa) => string,
  hooks: HostHooks = {},
): { app: Koa; mountPath: string } {
  const app = new KoaApp();
  app.on('error', (error: unknown) => hooks.onHostError?.(error));
  app.use(async (ctx, next) => {
    await next();
    hooks.onAnswer?.({ status: ctx.status, body: ctx.body, type: ctx.response.type });
    ctx.set('x-observed', String(ctx.status));
  });
  app.use(async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.path !== '/health') {
      await next();
      return;
    }
    ctx.type = 'text/plain';
    ctx.body = 'ok';
  });
  const mountPath = mount(app);
  app.use((ctx) => {
    const passed = `${ctx.method} ${ctx.path}`;
    hooks.onPassedOn?.(passed);
    ctx.status = 200;
    ctx.type = 'text/plain';
    ctx.body = `host:${passed}`;
  });
  return { app, mountPath };
}

/**
 * A target of the contract suite: a Koa host of one major with the route mounted one way, and the
 * RFC 9728 metadata at the root (behind the route, before the catch-all) when the options turn it on.
 *
 * @param KoaApp - the Koa class of one major
 * @param plantRoutes - `plantRoutes` of `@plantstore/koa`
 * @param mounting - how the route is mounted. Default at the root
 * @param hooks - told of what reaches the host
 * @param protectedResourceMetadata - `protectedResourceMetadata` of `@plantstore/koa`; without it, a
 *   service made with `resourceMetadata` fails to start
 * @returns the target
 * @example
 * describeHttpContract('Koa 3', koaTarget(KOA_MAJORS['Koa 3'], plantRoutes, KOA_AT_API, {}, protectedResourceMetadata));
 */
export function koaTarget(
  KoaApp: KoaClass,
  plantRoutes: PlantRoutesFactory,
  mounting: KoaMounting = KOA_AT_ROOT,
  hooks: HostHooks = {},
  protectedResourceMetadata?: KoaMetadataFactory,
): ContractTarget {
  return {
    passesOn: true,
    start(options, setup) {
      let route: KoaRoute | undefined;
      const routeAt: KoaRouteAt = (prefix) =>
        (route = plantRoutes(prefix === undefined ? options : { ...options, prefix }));
      const { app, mountPath } = koaHostApp(
        KoaApp,
        (host) => {
          const path = mounting.mount(host, routeAt);
          const metadata =
            route === undefined ? undefined : metadataFor(route.service, protectedResourceMetadata);
          if (metadata !== undefined) host.use(metadata);
          return path;
        },
        hooks,
      );
      return listen(nodeListener(app), mountPath, setup?.tls);
    },
  };
}

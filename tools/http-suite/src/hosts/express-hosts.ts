import type { PlantService, PlantServiceOptions } from '@plantstore/core';
import type express from 'express';
import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import type { HostHooks } from './host-hooks';
import { listen } from './listen';
import { loadMajors } from './majors';
import { metadataFor } from './metadata-for';
import type { ContractTarget } from './target';

/** The `express` function of one major. */
export type ExpressFactory = typeof express;

/**
 * `plantRouter` of `@plantstore/express`, handed in by the caller: the kit does not depend on the
 * adapters it hosts (their own tests depend on the kit).
 */
export type PlantRouterFactory = (
  options: PlantServiceOptions,
) => RequestHandler & { readonly service: PlantService };

/** `protectedResourceMetadata` of `@plantstore/express`, handed in by the caller likewise. */
export type ExpressMetadataFactory = (service: PlantService) => RequestHandler;

/** Both installed Express majors, by name. */
export const EXPRESS_MAJORS = loadMajors<ExpressFactory>()({
  'Express 4': 'express4',
  'Express 5': 'express5',
});

/** One of {@link EXPRESS_MAJORS}. */
export type ExpressMajor = keyof typeof EXPRESS_MAJORS;

/** One way a host mounts the route. */
export interface ExpressMounting {
  readonly name: string;
  /** Where the route ends up, as the suite's `url` path. */
  readonly path: string;
  mount(express: ExpressFactory, app: Express, route: RequestHandler): void;
}

/** The route at the root: `app.use(route)`. */
export const EXPRESS_AT_ROOT: ExpressMounting = {
  name: 'at /',
  path: '',
  mount: (_express, app, route) => void app.use(route),
};

/** The route at a prefix: `app.use('/api/v1', route)`. */
export const EXPRESS_AT_PREFIX: ExpressMounting = {
  name: 'at a prefix',
  path: '/api/v1',
  mount: (_express, app, route) => void app.use('/api/v1', route),
};

/** The mountings the docs describe: at the root, at a prefix, inside nested routers at a prefix. */
export const EXPRESS_MOUNTINGS: readonly ExpressMounting[] = [
  EXPRESS_AT_ROOT,
  EXPRESS_AT_PREFIX,
  {
    name: 'inside a nested express.Router() at a prefix',
    path: '/api/v1',
    mount(express, app, route) {
      const outer = express.Router();
      const inner = express.Router();
      inner.use(route);
      outer.use('/v1', inner);
      app.use('/api', outer);
    },
  },
];

/**
 * The catch-all of a host behind the route: 200 `host:<METHOD> <path>`, as the contract suite
 * expects of a host that passes requests on.
 *
 * @param hooks - told of every request that reaches it
 * @returns the handler
 */
export function hostCatchAll(hooks: HostHooks = {}): RequestHandler {
  return (req, res) => {
    const passed = `${req.method} ${req.originalUrl.split('?')[0] ?? ''}`;
    hooks.onPassedOn?.(passed);
    res.type('text/plain').send(`host:${passed}`);
  };
}

/**
 * The error middleware of a host: reports the error, then answers its `status` (else 500) with
 * `{"host": "error handler", "message": …}`.
 *
 * @param hooks - told of every error that reaches it
 * @returns the handler
 */
export function hostErrorHandler(hooks: HostHooks = {}): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    hooks.onHostError?.(error);
    if (res.headersSent) return next(error);
    const status = (error as { status?: unknown }).status;
    res
      .status(typeof status === 'number' ? status : 500)
      .json({ host: 'error handler', message: error instanceof Error ? error.message : '' });
  };
}

/** Options of {@link expressHostApp}. */
export interface ExpressHostOptions {
  /** Where the route goes. Default at the root. */
  readonly mounting?: ExpressMounting;
  readonly hooks?: HostHooks;
  /** The RFC 9728 metadata handler, mounted at the root with `app.use`. Default none. */
  readonly metadata?: RequestHandler | undefined;
}

/** Options of {@link expressTarget}. */
export interface ExpressTargetOptions extends Omit<ExpressHostOptions, 'metadata'> {
  /**
   * `protectedResourceMetadata` of `@plantstore/express`: mounted at the root for the services made
   * with `resourceMetadata`. Without it, such a service fails to start.
   */
  readonly protectedResourceMetadata?: ExpressMetadataFactory;
}

/**
 * A host app as a user writes one: its own `GET /health`, the RFC 9728 metadata when given, the
 * route, a catch-all behind it and an error handler of its own.
 *
 * @param express - the `express` function of one major
 * @param route - the route, `plantRouter(options)`
 * @param options - the mounting and the hooks
 * @returns the app
 * @example
 * const app = expressHostApp(EXPRESS_MAJORS['Express 5'], plantRouter(options));
 */
export function expressHostApp(
  express: ExpressFactory,
  route: RequestHandler,
  options: ExpressHostOptions = {},
): Express {
  const app = express();
  app.get('/health', (_req, res) => void res.type('text/plain').send('ok'));
  if (options.metadata !== undefined) app.use(options.metadata);
  (options.mounting ?? EXPRESS_AT_ROOT).mount(express, app, route);
  app.use(hostCatchAll(options.hooks));
  app.use(hostErrorHandler(options.hooks));
  return app;
}

/**
 * A target of the contract suite: an Express host of one major with the route mounted one way, and
 * the RFC 9728 metadata at the root when the options turn it on.
 *
 * @param express - the `express` function of one major
 * @param plantRouter - `plantRouter` of `@plantstore/express`
 * @param options - the mounting, the hooks and `protectedResourceMetadata`
 * @returns the target
 * @example
 * describeHttpContract('Express 5', expressTarget(EXPRESS_MAJORS['Express 5'], plantRouter, { protectedResourceMetadata }));
 */
export function expressTarget(
  express: ExpressFactory,
  plantRouter: PlantRouterFactory,
  options: ExpressTargetOptions = {},
): ContractTarget {
  const { protectedResourceMetadata, ...hostOptions } = options;
  return {
    passesOn: true,
    start(serviceOptions, setup) {
      const route = plantRouter(serviceOptions);
      const metadata = metadataFor(route.service, protectedResourceMetadata);
      return listen(
        expressHostApp(express, route, { ...hostOptions, metadata }),
        options.mounting?.path ?? '',
        setup?.tls,
      );
    },
  };
}

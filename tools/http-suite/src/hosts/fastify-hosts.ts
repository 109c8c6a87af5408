import { createServer, type RequestListener } from 'node:http';
import { Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { PlantService, PlantServiceOptions } from '@plantstore/core';
import type fastify from 'fastify';
import type { FastifyInstance, FastifyPluginCallback, FastifyServerOptions } from 'fastify';
import type { ContractTls } from '../contract-setup';
import { tlsServer } from '../tls/tls-server';
import type { HostHooks } from './host-hooks';
import { loadMajors } from './majors';
import { metadataFor } from './metadata-for';
import type { ContractHost, ContractTarget } from './target';

/** The `Fastify` factory of one major. */
export type FastifyFactory = typeof fastify;

/** Both installed Fastify majors, by name. */
export const FASTIFY_MAJORS = loadMajors<FastifyFactory>()({
  'Fastify 4': 'fastify4',
  'Fastify 5': 'fastify5',
});

/** One of {@link FASTIFY_MAJORS}. */
export type FastifyMajor = keyof typeof FASTIFY_MAJORS;

/** The plugin as `plantPlugin` of `@plantstore/fastify` returns it. */
export type FastifyPlantPlugin = FastifyPluginCallback & { readonly service: PlantService };

/**
 * `plantPlugin` of `@plantstore/fastify`, handed in by the caller: the kit does not depend on the
 * adapters it hosts (their own tests depend on the kit).
 */
export type PlantPluginFactory = (
  options: Omit<PlantServiceOptions, 'basePath' | 'strictRouting' | 'caseSensitiveRouting'>,
) => FastifyPlantPlugin;

/** `protectedResourceMetadata` of `@plantstore/fastify`, handed in by the caller likewise. */
export type FastifyMetadataFactory = (service: PlantService) => FastifyPluginCallback;

/** One way a host registers the plugin. */
export interface FastifyMounting {
  readonly name: string;
  /** Where the route ends up, as the suite's `url` path. */
  readonly path: string;
  mount(app: FastifyInstance, plugin: FastifyPluginCallback): void;
}

/** The plugin registered at the root. */
export const FASTIFY_AT_ROOT: FastifyMounting = {
  name: 'at the root',
  path: '',
  mount: (app, plugin) => void app.register(plugin),
};

/** The plugin registered with the prefix `/api/v1`. */
export const FASTIFY_AT_PREFIX: FastifyMounting = {
  name: 'at a prefix',
  path: '/api/v1',
  mount: (app, plugin) => void app.register(plugin, { prefix: '/api/v1' }),
};

/** The registrations the docs describe: at the root, at a prefix, inside a host plugin at a prefix. */
export const FASTIFY_MOUNTINGS: readonly FastifyMounting[] = [
  FASTIFY_AT_ROOT,
  FASTIFY_AT_PREFIX,
  {
    name: 'inside a host plugin at a prefix',
    path: '/api/v1',
    mount(app, plugin) {
      void app.register(
        (api, _options, done) => {
          void api.register(plugin, { prefix: '/v1' });
          done();
        },
        { prefix: '/api' },
      );
    },
  },
];

/**
 * The host's own routes the suite expects beside the plugin: every other method and path answers
 * 200 `host:<METHOD> <path>`.
 *
 * @param app - the host app
 * @param hooks - told of every request that reaches it
 */
export function fastifyCatchAll(app: FastifyInstance, hooks: HostHooks = {}): void {
  app.all('/*', (request, reply) => {
    const passed = `${request.method} ${request.url.split('?')[0] ?? ''}`;
    hooks.onPassedOn?.(passed);
    return reply.type('text/plain').send(`host:${passed}`);
  });
}

/**
 * Sets the host's error handler: it reports each error, then answers its status (500 by default)
 * with `{host: 'error handler', message}`.
 *
 * @param app - the host app
 * @param hooks - told of every error that reaches it
 */
export function fastifyErrorHandler(app: FastifyInstance, hooks: HostHooks = {}): void {
  app.setErrorHandler((error: unknown, _request, reply) => {
    hooks.onHostError?.(error);
    const status = (error as { statusCode?: unknown }).statusCode;
    return reply
      .code(typeof status === 'number' ? status : 500)
      .send({ host: 'error handler', message: error instanceof Error ? error.message : '' });
  });
}

/**
 * Starts an app on 127.0.0.1, port 0, and closes it with every socket destroyed.
 *
 * @param app - the app, not listening yet
 * @param mountPath - where the route is registered
 * @returns the running host; its `url` ends with `mountPath`
 */
export async function startFastify(
  app: FastifyInstance,
  mountPath = '',
): Promise<ContractHost & { readonly port: number }> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const scheme = app.server instanceof TlsServer ? 'https' : 'http';
  return {
    url: `${scheme}://127.0.0.1:${port}${mountPath}`,
    port,
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

/** Options of {@link fastifyHostApp} and {@link fastifyTarget}. */
export interface FastifyHostOptions {
  /** Where the plugin goes. Default at the root. */
  readonly mounting?: FastifyMounting;
  readonly hooks?: HostHooks;
  /** Fastify's own server options, e.g. `serverFactory` or the router's. */
  readonly server?: FastifyServerOptions;
  /**
   * `protectedResourceMetadata` of `@plantstore/fastify`: registered at the root for the services
   * made with `resourceMetadata`. Without it, such a service fails to start.
   */
  readonly protectedResourceMetadata?: FastifyMetadataFactory;
}

/**
 * A host app as a user writes one: a catch-all of its own and an error handler of its own, the
 * plugin registered one way, and the RFC 9728 metadata at the root when the service serves it.
 *
 * @param fastify - the factory of one major
 * @param plugin - the route, `plantPlugin(options)`
 * @param options - the mounting, the hooks, server options and `protectedResourceMetadata`
 * @returns the app, not listening yet
 */
export function fastifyHostApp(
  fastify: FastifyFactory,
  plugin: FastifyPlantPlugin,
  options: FastifyHostOptions = {},
): FastifyInstance {
  const app = fastify(options.server);
  fastifyCatchAll(app, options.hooks);
  fastifyErrorHandler(app, options.hooks);
  // At the root, as RFC 9728 wants, whatever prefix the route is registered under.
  const metadata = metadataFor(plugin.service, options.protectedResourceMetadata);
  if (metadata !== undefined) void app.register(metadata);
  (options.mounting ?? FASTIFY_AT_ROOT).mount(app, plugin);
  return app;
}

/**
 * A target of the contract suite: the host of {@link fastifyHostApp}, with the plugin built from the
 * suite's options, e.g. `fastifyTarget(FASTIFY_MAJORS['Fastify 5'], plantPlugin, { mounting })`.
 */
export const fastifyTarget = (
  fastify: FastifyFactory,
  plantPlugin: PlantPluginFactory,
  options: FastifyHostOptions = {},
): ContractTarget => ({
  passesOn: true,
  start: (serviceOptions, setup) =>
    startFastify(
      fastifyHostApp(fastify, plantPlugin(serviceOptions), withTls(options, setup?.tls)),
      options.mounting?.path ?? '',
    ),
});

// Fastify serves HTTPS from the server its factory makes: the contract's, asking for a certificate.
function withTls(options: FastifyHostOptions, tls: ContractTls | undefined): FastifyHostOptions {
  if (tls === undefined) return options;
  const serverFactory = (handler: RequestListener) => tlsServer(handler, tls);
  return { ...options, server: { ...options.server, serverFactory } };
}

/**
 * The host app of {@link fastifyHostApp} as a `node:http` request listener, for a runner that
 * serves (and measures) requests through its own server.
 *
 * @param fastify - the factory of one major
 * @param plugin - the route, `plantPlugin(options)`
 * @param options - the mounting, the hooks and `protectedResourceMetadata`
 * @returns the listener, once the app is ready
 */
export async function fastifyListener(
  fastify: FastifyFactory,
  plugin: FastifyPlantPlugin,
  options: FastifyHostOptions = {},
): Promise<RequestListener> {
  let listener: RequestListener | undefined;
  const server = {
    ...options.server,
    serverFactory: (handler: RequestListener) => {
      listener = handler;
      return createServer();
    },
  };
  const app = fastifyHostApp(fastify, plugin, { ...options, server });
  await app.ready();
  if (listener === undefined) throw new Error('Fastify did not hand over its request handler.');
  return listener;
}

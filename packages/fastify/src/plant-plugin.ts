import { createPlantService, type PlantService, type PlantServiceOptions } from '@plantstore/core';
import { isPlantService } from '@plantstore/core/adapter';
import type { FastifyPluginCallback } from 'fastify';
import { routeScope } from './route-scope';
import { type HostLogger, hostLogger } from './host-logger';

/** Options of {@link plantPlugin}: the core's, less the routing that Fastify itself decides. */
export type PlantPluginOptions = Omit<
  PlantServiceOptions,
  'basePath' | 'strictRouting' | 'caseSensitiveRouting'
> & {
  /** The tag `@fastify/swagger` lists the route's operation under; `plants` by default. */
  readonly openApiTag?: string | undefined;
};

/** The plugin {@link plantPlugin} returns, for `app.register`, with the service behind it. */
export interface PlantPlugin extends FastifyPluginCallback {
  /** The service behind the route, for `ready()` in a readiness probe; see {@link plantPlugin} on closing. */
  readonly service: PlantService;
}

// Fastify's router matches the route, so the core's own routing options would do nothing here.
const DECIDED_BY_FASTIFY: Readonly<Record<string, string>> = {
  basePath: "register the plugin with Fastify's prefix: app.register(plugin, { prefix: '/api' })",
  strictRouting: "Fastify's ignoreTrailingSlash decides trailing slashes",
  caseSensitiveRouting: "Fastify's caseSensitive decides case",
};

/**
 * Makes a Fastify 4 or 5 plugin that registers `POST /plants`, under the `prefix` it is registered
 * with. The plugin is encapsulated: its content-type parser, error handler and request decorator
 * apply to that one route, and the host's other routes, parsers and hooks are untouched. The
 * route's answers (success or any contract error) are sent through `reply`, never thrown. A
 * service made from options is closed when the app closes (`onClose`); one passed in is the caller's.
 * Registering waits for `service.warmUp()` (a few ms, once per service), so Fastify listens on a
 * compiled route; it never fails for a key set or store that is down. Without a `logger` option, what
 * the service logs (a 5xx when there is no `onError`) goes to the app's own logger: `request.log`,
 * with its `reqId`, for what a request caused, and `app.log` for the rest.
 *
 * @param options - the core's options, without its routing options (a misspelt one is a compile
 *   error with a suggestion, and a `TypeError` at run time)
 * @returns the plugin, with the `service` it serves
 * @throws TypeError when an option is missing or wrong, at once
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { jwtBearer, memoryStore } from '@plantstore/core';
 * import { plantPlugin } from '@plantstore/fastify';
 *
 * const app = Fastify();
 * await app.register(plantPlugin({ store: memoryStore(), auth: jwtBearer({ jwksUri, issuer, audience }) }), { prefix: '/api' });
 * await app.listen({ port: 3000 }); // POST /api/plants
 * ```
 */
export function plantPlugin(options: PlantPluginOptions): PlantPlugin;
/**
 * Registers a service made by `createPlantService`, so that one store and one key set cache serve
 * several registrations; the caller closes it. See the options form for everything else.
 *
 * @param service - the service
 * @returns the plugin, with the same `service`
 */
export function plantPlugin(service: PlantService): PlantPlugin;
// Two signatures, not one with a union: TypeScript checks an object literal's excess properties
// (and suggests the name meant) only against a parameter that is not a union with PlantService.
export function plantPlugin(options: PlantPluginOptions | PlantService): PlantPlugin {
  const owned = !isPlantService(options);
  // `?.`: options that are not an object get the core's own TypeError in createService.
  const logger = owned && options?.logger === undefined ? hostLogger() : undefined;
  const service = owned ? createService(options, logger) : options;
  // What the route's OpenAPI description names; a service passed in does not say its scopes.
  const scopes = owned ? (options.auth.accepts?.scopes ?? []) : [];
  const tag = owned ? options.openApiTag : undefined;
  let closing: Promise<void> | undefined;
  const plugin: FastifyPluginCallback = (scope, _registerOptions, done) => {
    logger?.use(scope.log);
    try {
      routeScope(scope, service, scopes, logger, tag);
    } catch (error) {
      // Fastify's own refusals (another `plantstore` request decorator, say) fail `register`.
      done(error as Error);
      return;
    }
    // A service made here is this plugin's to release; one passed in belongs to the caller.
    if (owned) scope.addHook('onClose', () => (closing ??= service.close()));
    // Fastify listens once every plugin is done: the first request then finds the route compiled.
    // `warmUp()`, not `ready()`: it never rejects, so an identity provider that is down at boot
    // does not fail the registration (the route answers 503 until it is back).
    void service.warmUp().then(() => done());
  };
  return Object.assign(plugin, {
    service,
    [Symbol.for('plugin-meta')]: { name: '@plantstore/fastify', fastify: '^4.28.0 || 5.x' },
  });
}

function createService(options: PlantPluginOptions, logger: HostLogger | undefined): PlantService {
  // Not an object: the core names what it received.
  if (typeof options !== 'object' || options === null) return createPlantService(options);
  for (const [option, instead] of Object.entries(DECIDED_BY_FASTIFY)) {
    if (option in options) {
      throw new TypeError(`Plantstore: @plantstore/fastify takes no "${option}": ${instead}.`);
    }
  }
  // The tag belongs to the route's OpenAPI description, which the service does not write.
  const { openApiTag, ...core } = options;
  if (openApiTag !== undefined && (typeof openApiTag !== 'string' || openApiTag.trim() === '')) {
    throw new TypeError(
      `Plantstore: option "openApiTag" must be a non-empty string; received ${JSON.stringify(openApiTag)}`,
    );
  }
  return createPlantService(logger === undefined ? core : { ...core, logger });
}

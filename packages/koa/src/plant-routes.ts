import { createPlantService, type PlantService, type PlantServiceOptions } from '@plantstore/core';
import { isPlantService } from '@plantstore/core/adapter';
import type { Next, ParameterizedContext } from 'koa';
import { toPlantRequest, writeAnswer } from './translate';

/** A Koa middleware of the route; assignable to `Koa.Middleware` and to `@koa/router` handlers. */
export type PlantMiddleware = (ctx: ParameterizedContext, next: Next) => Promise<void>;

/** Options of {@link plantRoutes}: the core's options, with the mount point named `prefix`. */
export interface PlantRoutesOptions extends Omit<PlantServiceOptions, 'basePath'> {
  /** The path the route lives under, e.g. `'/api'` for `POST /api/plants`. Default `''`. */
  readonly prefix?: string | undefined;
}

/** The middleware returned by {@link plantRoutes}, with the same route as a router handler. */
export interface PlantRoutes extends PlantMiddleware {
  /**
   * The route as a handler for a host's `@koa/router`: `router.post('/plants', plants.handler)`.
   * The router already matched the path (its prefix included), so only the method is checked.
   */
  readonly handler: PlantMiddleware;
  /** The service behind the middleware, for `ready()` and `close()`. */
  readonly service: PlantService;
}

/**
 * Mounts `POST {prefix}/plants` into a Koa 2 or 3 application. The middleware claims only that
 * route and passes every other request to `next()` untouched. Contract answers (4xx, 5xx) are
 * written as responses, never thrown, so the host's error middleware and `app.on('error')` do not
 * see them. The verified principal is left on `ctx.state.plantstore`.
 *
 * @param options - the core's options with an optional `prefix` (a misspelt one is a compile error
 *   with a suggestion, and a `TypeError` at run time)
 * @returns the middleware, with `.handler` for `@koa/router` and `.service`
 * @throws TypeError when an option is missing or wrong
 * @example
 * ```ts
 * const plants = plantRoutes({ prefix: '/api', store: memoryStore(), auth: jwtBearer({ jwksUri, issuer, audience }) });
 * app.use(plants); // POST /api/plants
 * // or on a router of your own: router.post('/plants', plants.handler);
 * ```
 */
export function plantRoutes(options: PlantRoutesOptions): PlantRoutes;
/**
 * Mounts a service made with `createPlantService`; its `basePath` is then the prefix. See the
 * options form for everything else.
 *
 * @param service - the service
 * @returns the middleware, with `.handler` for `@koa/router` and the same `.service`
 */
export function plantRoutes(service: PlantService): PlantRoutes;
// Two signatures, not one with a union: TypeScript checks an object literal's excess properties
// (and suggests the name meant) only against a parameter that is not a union with PlantService.
export function plantRoutes(options: PlantRoutesOptions | PlantService): PlantRoutes {
  const service = isPlantService(options) ? options : createService(options);
  const answer = async (ctx: ParameterizedContext): Promise<void> => {
    const result = await service.handle(toPlantRequest(ctx));
    writeAnswer(ctx, result);
    ctx.state.plantstore = { principal: result.principal };
  };
  const middleware = async (ctx: ParameterizedContext, next: Next): Promise<void> => {
    if (service.matches(ctx.method, ctx.path)) await answer(ctx);
    else await next();
  };
  const handler = async (ctx: ParameterizedContext, next: Next): Promise<void> => {
    if (ctx.method === 'POST') await answer(ctx);
    else await next();
  };
  return Object.assign(middleware, { handler, service });
}

function createService(options: PlantRoutesOptions): PlantService {
  // Not an object: the core names what it received.
  if (typeof options !== 'object' || options === null) return createPlantService(options);
  const { prefix, ...rest } = options;
  if ('basePath' in rest) {
    throw new TypeError('Plantstore: @plantstore/koa takes "prefix" instead of "basePath".');
  }
  return createPlantService(prefix === undefined ? rest : { ...rest, basePath: prefix });
}

import { createPlantService, type PlantService, type PlantServiceOptions } from '@plantstore/core';
import { isPlantService, nodeHeaderReader, writeAnswer } from '@plantstore/core/adapter';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type KeepRawBody, rawBodyKeeper } from './keep-raw-body';
import { requestBody } from './request-body';

/** The middleware {@link plantRouter} returns: an Express `RequestHandler` with its service. */
export interface PlantRouter extends RequestHandler {
  /** The service behind the route, for `ready()` in a readiness probe and `close()` at shutdown. */
  readonly service: PlantService;
  /**
   * The `verify` option for a body parser that runs before the route: it keeps the bytes of the
   * requests the route claims (`POST …/plants`, at whatever mount) on `req.rawBody`, by reference,
   * and nothing of any other request. The route then reads those bytes with its strict reader: ids
   * past 2^53 stay exact, and duplicate keys, `__proto__`, lone surrogates, invalid UTF-8 and deep
   * nesting are refused as when the route is mounted first. What the parser itself refuses (bad
   * JSON, its charset and size limits) still never reaches the route.
   *
   * @example
   * ```ts
   * const plants = plantRouter({ store, auth });
   * app.use(express.json({ verify: plants.keepRawBody })); // the app's parser, for every route
   * app.use('/api', plants); // POST /api/plants reads the bytes the parser kept
   * ```
   */
  readonly keepRawBody: KeepRawBody;
}

/**
 * Mounts `POST /plants` into an Express 4 or 5 application, relative to where it is mounted. Every
 * other method and path goes on to the host's next handler untouched; the route's own answers
 * (success or any contract error) are written here and never reach the host's error middleware.
 *
 * Routing follows the core's options: pass `strictRouting: true` or `caseSensitiveRouting: true`
 * when the app (or the host router) enables `strict routing` or `case sensitive routing`.
 *
 * @param options - the core's options (a misspelt one is a compile error with a suggestion, and a
 *   `TypeError` at run time)
 * @returns the middleware, with the `service` it serves
 * @throws TypeError when an option is missing or wrong, at once
 * @example
 * ```ts
 * import express from 'express';
 * import { jwtBearer, memoryStore } from '@plantstore/core';
 * import { plantRouter } from '@plantstore/express';
 *
 * const app = express();
 * app.use('/api', plantRouter({ store: memoryStore(), auth: jwtBearer({ jwksUri, issuer, audience }) }));
 * app.listen(3000); // POST /api/plants
 * ```
 */
export function plantRouter(options: PlantServiceOptions): PlantRouter;
/**
 * Mounts a service made by `createPlantService`, so that one store and one key set cache serve
 * several mounts; see the options form for everything else.
 *
 * @param service - the service
 * @returns the middleware, with the same `service`
 */
export function plantRouter(service: PlantService): PlantRouter;
// Two signatures, not one with a union: TypeScript checks an object literal's excess properties
// (and suggests the name meant) only against a parameter that is not a union with PlantService.
export function plantRouter(optionsOrService: PlantServiceOptions | PlantService): PlantRouter {
  const service = isPlantService(optionsOrService)
    ? optionsOrService
    : createPlantService(optionsOrService);
  const plantRoute = (req: Request, res: Response, next: NextFunction): void => {
    // Connect-style hosts (NestJS on Fastify, through @fastify/middie) call Express middleware too.
    if (typeof req.path !== 'string') return next(notExpress());
    if (!service.matches(req.method, req.path)) return next();
    service
      .handle({
        method: req.method,
        path: req.path,
        // The path as the client sent it, mount path included: DPoP proofs name it (`htu`).
        originalUrl: req.originalUrl,
        headers: nodeHeaderReader(req),
        // The connection, for the TLS client certificate a bound token needs (RFC 8705).
        socket: req.socket,
        ...requestBody(req),
      })
      .then((answer) => {
        res.locals.plantstore = { principal: answer.principal };
        writeAnswer(res, answer);
      })
      // `handle` never rejects; this keeps anything truly unexpected off Express 4's unhandled path.
      .catch(next);
  };
  return Object.assign(plantRoute, { service, keepRawBody: rawBodyKeeper(service) });
}

function notExpress(): TypeError {
  return new TypeError(
    'plantRouter: this request has no req.path, so it does not come from Express. On ' +
      "NestJS's Fastify platform, register plantPlugin from @plantstore/fastify instead " +
      '(docs/hosts/nestjs.md).',
  );
}

// The route itself, shared by both builds of `createPlantService` (service.ts for Node, Bun and
// Deno; web-service.ts for Workers and Edge runtimes): they differ only in what `warmUp()` runs.
import { plantAnswer } from './answer';
import { hookContext, REQUEST_AUTH, requestAuth } from './request-auth';
import { assertJsonBody } from '../body/content-type';
import { MethodNotAllowedError, NotFoundError } from '../errors/client-errors';
import { insertPlant } from '../plant/insert-plant';
import { plantRecord } from '../plant/plant-record';
import { deadlineList } from '../common/deadline-list';
import type { ResolvedOptions } from './service-options';
import { readPlantBody } from '../body/read-plant-body';
import { validatePlant } from '../plant/validate-plant';
import type { Principal } from '../auth/principal';
import {
  headerReader,
  type HeaderReader,
  type PlantAnswer,
  type PlantRequest,
} from '../http/request';
import { declaresBody } from '../http/declared-body';
import { routeMatcher } from '../http/route';
import { runHook } from './run-hook';
import type { TracedHandler } from './diagnostics';
import type { PlantService } from './plant-service';
import { webResponse } from './web-response';
import { urlPath } from '../http/url-path';
import { runtimeHeaders } from '../http/runtime-headers';

const brand = Symbol.for('@plantstore/core/service');

/**
 * The route on checked options, what each `createPlantService` returns: the Node build's, whose
 * `warmUp` runs `service/warm-up.ts`, and the Workers and Edge build's, whose `warmUp` has nothing to
 * run (no `node:stream` there), so that jose's `SignJWT` and the Node request shapes stay out of a
 * Worker's bundle.
 *
 * @param config - the checked options
 * @param traced - wraps the handler for the diagnostics channel, or not
 * @param warmUp - what the service's `warmUp()` runs, the first time it is called
 * @returns the service
 * @example
 * ```ts
 * const service = routeService(resolveOptions(options), traceCreate, () => Promise.resolve());
 * ```
 */
export function routeService(
  config: ResolvedOptions,
  traced: (handler: TracedHandler) => PlantService['handle'],
  warmUp: () => Promise<void>,
): PlantService {
  const isRoutePath = routeMatcher(config);
  const bodyDeadlines = deadlineList();
  const bodyLimits = {
    limitBytes: config.bodyLimit,
    timeoutMs: config.bodyTimeout,
    deadlines: bodyDeadlines,
  };
  const storeDeadlines = deadlineList();
  const storeLimits = {
    timeoutMs: config.storeTimeout,
    retryAfter: config.retryAfter,
    deadlines: storeDeadlines,
    isOwner: config.isOwner,
    eventOf: config.eventOf,
  };
  const { tenantOf } = config;

  const auth = requestAuth(config);
  let warming: Promise<void> | undefined;

  const handle = traced(async (request, trace): Promise<PlantAnswer> => {
    let principal: Principal | undefined;
    const headers = headerReader(request.headers);
    let bodyRead = false;
    try {
      if (request.matched !== true) {
        if (!isRoutePath(request.path)) throw new NotFoundError(config.routePath);
        if (request.method !== 'POST') throw new MethodNotAllowedError();
      }
      principal = await auth.authenticate(request, headers);
      // A token that names no tenant does not fit this resource: refused as the token it is.
      const tenant = tenantOf === undefined ? '' : tenantOf(principal);
      assertJsonBody(
        headers('content-type'),
        headers('content-encoding'),
        headers('transfer-encoding'),
      );
      // Once the whole body is in hand, a refusal of what it holds leaves the connection clean.
      const candidate = await readPlantBody(request, headers, bodyLimits, () => {
        bodyRead = true;
      });
      const plant = validatePlant(candidate);
      trace?.storeStarted();
      const record = plantRecord(plant, principal, tenant, new Date());
      const created = await insertPlant(config.store, record, principal, storeLimits);
      trace?.stored(created);
      if (created && config.onCreated !== undefined) {
        runHook(config.onCreated, plant, hookContext(request, principal), config.onError);
      }
      return plantAnswer(plant, principal, !created);
    } catch (error) {
      trace?.refused(error);
      // Until the body is read, an answer leaves it on the connection: it must close (see below).
      const unread = !bodyRead && hasUnreadBody(request, headers);
      return auth.refuse(error, request, principal, unread);
    }
  });

  const service: PlantService = {
    matches: (method, path) => method === 'POST' && isRoutePath(path),
    handle,
    resourceMetadata: config.resourceMetadata,
    async fetch(request) {
      const path = urlPath(request.url);
      const answer = config.resourceMetadata?.serves(path)
        ? config.resourceMetadata.answer(request.method, request.headers)
        : await handle({
            method: request.method,
            path,
            headers: runtimeHeaders(request.headers),
            // The request itself: a small declared body is read with the runtime's arrayBuffer().
            // Not `request.signal`: reading it makes Deno.serve warn and abort it after every
            // answer, and Bun builds it on first read. A client that goes away mid-body errors the
            // body read itself on Bun, Deno, workerd and @hono/node-server, which ends it.
            body: request,
          });
      // Deno adds a `Connection: close` of its own to an answer whose request body was never
      // opened, beside the route's: opened, the answer carries the route's alone, as elsewhere.
      if (answer.headers.connection === 'close') void request.body;
      return webResponse(answer, request.method);
    },
    async ready() {
      await Promise.all([
        config.auth.ready?.(),
        config.store.ready?.({ logger: config.logger }),
        service.warmUp(),
      ]);
    },
    // Once per service, and only when asked: compiled code is the process's, whichever ran it.
    warmUp: () => (warming ??= warmUp()),
    async close() {
      storeDeadlines.stop();
      bodyDeadlines.stop();
      await Promise.all([config.auth.close?.(), config.store.close?.()]);
    },
  };
  Object.defineProperty(service, brand, { value: true });
  // The guards' way to the same auth step: symbol-keyed, so it is no part of the service's face.
  Object.defineProperty(service, REQUEST_AUTH, { value: auth });
  return service;
}

/** Whether the request still has a body on the connection: a host parser did not take it, and it was declared. */
function hasUnreadBody(request: PlantRequest, headers: HeaderReader): boolean {
  return request.body !== undefined && request.body !== null && declaresBody(headers);
}

/**
 * Tells a service made by `createPlantService` from options, so adapters accept either.
 *
 * @param value - a service or options
 * @returns whether `value` is a service
 */
export function isPlantService(value: unknown): value is PlantService {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[brand] === true
  );
}

import bodyParser from '@koa/bodyparser';
import Router from '@koa/router';
import type { PlantService } from '@plantstore/core';
import { plantRoutes } from '@plantstore/koa';
import Koa from 'koa';

/** What the app is built from, so the server and the tests can each supply their own. */
export interface AppDeps {
  /** The plants route's service: its store and its bearer check. */
  readonly plants: PlantService;
  /** Where the access log and unexpected errors go. Default `console.log`. */
  readonly log?: (line: string) => void;
}

/** The host's own catalogue, served by its own `GET /api/plants`. */
const catalogue = [
  { name: 'Monstera', tag: 'aroid' },
  { name: 'Boston fern', tag: 'fern' },
];

/**
 * An existing Koa 3 application with middleware and routes of its own, into which the plants route
 * is mounted on its `/api` router: `POST /api/plants` is Plantstore's, everything else stays the
 * app's.
 *
 * @param deps - the plants service and a logger
 * @returns the app, not listening yet
 */
export function createApp(deps: AppDeps): Koa {
  const log = deps.log ?? ((line: string) => console.log(line));
  const app = new Koa();

  // Access log and timing. It sees every answer, the route's included, and who made the request:
  // the route leaves the verified principal on ctx.state.plantstore.
  app.use(async (ctx, next) => {
    const started = performance.now();
    await next();
    const ms = (performance.now() - started).toFixed(1);
    ctx.set('x-response-time', `${ms}ms`);
    const who = ctx.state.plantstore?.principal?.subject ?? '-';
    log(`${ctx.method} ${ctx.originalUrl} ${ctx.status} ${ms}ms ${who}`);
  });

  // The app's error handling. The plants route never throws its answers (401, 400, 503…), so
  // only the app's own failures and its body parser's errors land here.
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { status, expose } = error as { status?: unknown; expose?: unknown };
      const code = typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
      if (code >= 500)
        log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const message =
        expose === true && error instanceof Error ? error.message : 'Something went wrong.';
      ctx.status = code;
      ctx.body = { error: code, message };
    }
  });

  const router = new Router();
  router.get('/health', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  const api = new Router({ prefix: '/api' });
  // Plantstore reads the body itself (exact int64 ids, its own limits); the app's body parser is
  // mounted only on the app's own routes that need one.
  api.post('/plants', plantRoutes(deps.plants).handler);
  api.get('/plants', (ctx) => {
    ctx.body = catalogue;
  });
  api.post('/feedback', bodyParser(), (ctx) => {
    const { message } = (ctx.request.body ?? {}) as { message?: unknown };
    if (typeof message !== 'string') ctx.throw(400, 'Send {"message": "…"}.');
    ctx.status = 202;
    ctx.body = { received: true };
  });

  app.use(router.routes());
  app.use(api.routes());
  app.use((ctx) => {
    ctx.status = 404;
    ctx.body = { error: 404, message: `Nothing at ${ctx.method} ${ctx.path}.` };
  });
  return app;
}

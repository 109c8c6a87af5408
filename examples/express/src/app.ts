import type { PlantService } from '@plantstore/core';
import { createOpenApiDocument } from '@plantstore/core/openapi';
import { plantRouter } from '@plantstore/express';
import express, { type ErrorRequestHandler, type Express } from 'express';

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
 * An existing Express 5 application with routes of its own, into which the plants route is mounted
 * at `/api`: `POST /api/plants` is Plantstore's, everything else stays the app's.
 *
 * @param deps - the plants service and a logger
 * @returns the app, not listening yet
 */
export function createApp(deps: AppDeps): Express {
  const log = deps.log ?? ((line: string) => console.log(line));
  const app = express();

  // An access log that also names who created a plant: the route leaves the principal on res.locals.
  app.use((req, res, next) => {
    res.on('finish', () => {
      const who = res.locals.plantstore?.principal?.subject ?? '-';
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${who}`);
    });
    next();
  });

  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  // The route's OpenAPI document as mounted here, built once: clients generate their types from it.
  const openapi = createOpenApiDocument({ basePath: '/api' });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });

  // Before express.json(), so the route reads the body itself and keeps int64 ids exact.
  app.use('/api', plantRouter(deps.plants));

  // The app's own JSON routes, parsed by Express as usual.
  app.use(express.json());
  app.get('/api/plants', (_req, res) => {
    res.json(catalogue);
  });
  app.post('/api/feedback', (req, res) => {
    const { message } = (req.body ?? {}) as { message?: unknown };
    if (typeof message !== 'string') {
      res.status(400).json({ error: 400, message: 'Send {"message": "…"}.' });
      return;
    }
    res.status(202).json({ received: true });
  });

  app.use((req, res) => {
    res.status(404).json({ error: 404, message: `Nothing at ${req.method} ${req.path}.` });
  });

  const onError: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    // body-parser's errors carry a 4xx status and a safe message (`expose`); anything else is a 500.
    const { status, expose } = error as { status?: unknown; expose?: unknown };
    const code = typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
    if (code >= 500)
      log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    const message =
      expose === true && error instanceof Error ? error.message : 'Something went wrong.';
    res.status(code).json({ error: code, message });
  };
  app.use(onError);

  return app;
}

import 'reflect-metadata';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { PlantService } from '@plantstore/core';
import { plantRouter } from '@plantstore/express';
import { AppModule } from './app.module';
import { PLANT_SERVICE } from './tokens';

/** What the app is built from, so the server and the tests can each supply their own. */
export interface AppDeps {
  /** The plants route's service: its store and its bearer check. */
  readonly plants: PlantService;
  /** Nest's logger option; `false` silences it (tests). */
  readonly logger?: LoggerService | LogLevel[] | false;
}

/**
 * A NestJS 11 application on its Express platform, with controllers of its own and the plants route
 * at `POST /api/plants`. Not initialised and not listening yet: call `listen()` (or `init()`).
 *
 * @param deps - the plants service and the logger option
 * @returns the application
 */
export async function createNestApp(deps: AppDeps): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(deps.plants), {
    ...(deps.logger === undefined ? {} : { logger: deps.logger }),
  });
  // SIGTERM and SIGINT close the app, and so the plants service (PlantsLifecycle).
  app.enableShutdownHooks();
  // Mounted now, before init(): Nest adds its JSON and urlencoded parsers at init, behind this, so
  // the route reads the body itself (exact int64 ids, its own limit and time-out, 401 before reading).
  app.use('/api', plantRouter(app.get<PlantService>(PLANT_SERVICE)));
  return app;
}

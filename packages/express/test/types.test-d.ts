import type { PlantService, PlantServiceOptions, Principal } from '@plantstore/core';
import express, { type Express, type RequestHandler, type Response, type Router } from 'express';
import { expectTypeOf } from 'vitest';
import type { KeepRawBody, PlantLocals, PlantRouter, plantRouter } from '../src/index';

// Type tests, checked by `tsc -p packages/express/tsconfig.json` (never run).
declare const res: Response;
declare const typedRes: Response<unknown, { requestId: string }>;
declare const app: Express;
declare const router: Router;

// Takes options or a service; the router it returns is a handler that carries its service.
expectTypeOf<Parameters<typeof plantRouter>>().toEqualTypeOf<
  [options: PlantServiceOptions | PlantService]
>();
expectTypeOf<ReturnType<typeof plantRouter>>().toEqualTypeOf<PlantRouter>();
expectTypeOf<PlantRouter>().toExtend<RequestHandler & { readonly service: PlantService }>();

// res.locals.plantstore is typed through the Express.Locals merge, with or without the host's own locals.
expectTypeOf(res.locals.plantstore).toEqualTypeOf<PlantLocals | undefined>();
expectTypeOf(typedRes.locals.plantstore).toEqualTypeOf<PlantLocals | undefined>();
expectTypeOf(typedRes.locals.requestId).toEqualTypeOf<string>();
expectTypeOf<PlantLocals['principal']>().toEqualTypeOf<Principal | undefined>();

// Mountable anywhere Express takes a handler.
declare const route: PlantRouter;
app.use(route);
app.use('/api/v1', route);
router.use('/v1', route);

// keepRawBody is a `verify` option of every body-parser parser.
expectTypeOf<PlantRouter['keepRawBody']>().toEqualTypeOf<KeepRawBody>();
app.use(express.json({ verify: route.keepRawBody }));
app.use(express.text({ type: 'application/json', verify: route.keepRawBody }));

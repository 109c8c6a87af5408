import {
  memoryStore,
  type PlantService,
  type PlantServiceOptions,
  type Principal,
} from '@plantstore/core';
import express, {
  type Express,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { expectTypeOf } from 'vitest';
import {
  guard,
  type KeepRawBody,
  type PlantLocals,
  type PlantRouter,
  plantRouter,
} from '../src/index';

// Type tests, checked by `tsc -p packages/express/tsconfig.json` (never run).
declare const res: Response;
declare const typedRes: Response<unknown, { requestId: string }>;
declare const app: Express;
declare const router: Router;

declare const options: PlantServiceOptions;
declare const service: PlantService;
declare const auth: PlantServiceOptions['auth'];

// Takes options or a service (two signatures); the router it returns is a handler that carries
// its service.
expectTypeOf(plantRouter(options)).toEqualTypeOf<PlantRouter>();
expectTypeOf(plantRouter(service)).toEqualTypeOf<PlantRouter>();
// Never called: the check is the compiler's. A misspelt option is an error, with the suggestion
// "Did you mean to write 'storeTimeout'?" (a union parameter would have hidden it).
const misspelt = () =>
  // @ts-expect-error -- storeTimout is not an option
  plantRouter({ store: memoryStore(), auth, storeTimout: 5 });
expectTypeOf(misspelt).returns.toEqualTypeOf<PlantRouter>();
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

// The guard is a RequestHandler, and puts the principal on `req.auth` (declaration merging).
expectTypeOf(
  guard(service, { requiredScopes: ['a'], scopeMatch: 'any' }),
).toEqualTypeOf<RequestHandler>();
declare const guardedRequest: Request;
expectTypeOf(guardedRequest.auth).toEqualTypeOf<Principal | undefined>();

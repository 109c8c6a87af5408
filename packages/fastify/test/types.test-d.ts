import { memoryStore, type PlantService, type Principal } from '@plantstore/core';
import type { FastifyInstance, FastifyPluginCallback, FastifyRequest } from 'fastify';
import { expectTypeOf } from 'vitest';
import {
  guard,
  type PlantPlugin,
  plantPlugin,
  type PlantPluginOptions,
  type PlantRequestState,
} from '../src/index';

// Type tests, checked by `tsc -p packages/fastify/tsconfig.json` (never run).
declare const app: FastifyInstance;
declare const request: FastifyRequest;
declare const plants: PlantPlugin;

declare const options: PlantPluginOptions;
declare const service: PlantService;

// Takes options or a service (two signatures).
expectTypeOf(plantPlugin(options)).toEqualTypeOf<PlantPlugin>();
expectTypeOf(plantPlugin(service)).toEqualTypeOf<PlantPlugin>();
// Never called: the check is the compiler's. A misspelt option is an error, with the suggestion
// "Did you mean to write 'storeTimeout'?" (a union parameter would have hidden it).
const misspelt = () =>
  // @ts-expect-error -- storeTimout is not an option
  plantPlugin({ store: memoryStore(), auth: options.auth, storeTimout: 5 });
expectTypeOf(misspelt).returns.toEqualTypeOf<PlantPlugin>();
expectTypeOf<PlantPlugin>().toExtend<FastifyPluginCallback>();
expectTypeOf<PlantPlugin['service']>().toEqualTypeOf<PlantService>();

// The routing options are Fastify's here, not the core's.
expectTypeOf<PlantPluginOptions>().not.toHaveProperty('basePath');
expectTypeOf<PlantPluginOptions>().not.toHaveProperty('strictRouting');
expectTypeOf<PlantPluginOptions>().not.toHaveProperty('caseSensitiveRouting');

// request.plantstore is typed through the FastifyRequest merge, on any route's request.
expectTypeOf(request.plantstore).toEqualTypeOf<PlantRequestState | undefined>();
expectTypeOf<PlantRequestState['principal']>().toEqualTypeOf<Principal | undefined>();
app.addHook('onResponse', (req, _reply, done) => {
  expectTypeOf(req.plantstore?.principal?.subject).toEqualTypeOf<string | undefined>();
  done();
});
app.get<{ Body: { a: number } }>('/typed', (req) => {
  expectTypeOf(req.plantstore).toEqualTypeOf<PlantRequestState | undefined>();
  return req.body.a;
});

// Registrable as it is, with Fastify's own register options.
void app.register(plants);
void app.register(plants, { prefix: '/api' });

// The guard is an onRequest hook; request.auth holds its principal, route config.guard its options.
expectTypeOf(request.auth).toEqualTypeOf<Principal | undefined>();
app.get(
  '/things',
  { onRequest: guard(service), config: { guard: { requiredScopes: ['things:read'] } } },
  () => 'ok',
);

import Router from '@koa/router';
import {
  createPlantService,
  memoryStore,
  type PlantService,
  type Principal,
} from '@plantstore/core';
import Koa, { type DefaultState, type Middleware, type ParameterizedContext } from 'koa';
import { describe, expectTypeOf, it } from 'vitest';
import { guard, plantRoutes, type PlantRoutes, type PlantState } from '../src/index';

describe('the public types', () => {
  const plants = plantRoutes({
    store: memoryStore(),
    auth: { verify: () => Promise.resolve(undefined) },
  });

  it('make the route a Koa middleware with a router handler and its service', () => {
    expectTypeOf(plants).toEqualTypeOf<PlantRoutes>();
    expectTypeOf(plants).toExtend<Middleware>();
    expectTypeOf(plants.handler).toExtend<Middleware>();
    expectTypeOf(plants.service).toEqualTypeOf<PlantService>();
    // Compiles against the host's own app and router.
    new Koa().use(plants);
    new Router({ prefix: '/v1' }).post('/plants', plants.handler).use(plants);
  });

  it('type ctx.state.plantstore through the DefaultState augmentation', () => {
    expectTypeOf<DefaultState['plantstore']>().toEqualTypeOf<PlantState | undefined>();
    expectTypeOf<
      NonNullable<ParameterizedContext['state']['plantstore']>['principal']
    >().toEqualTypeOf<Principal | undefined>();
  });

  it('type the guard as Koa middleware, and ctx.state.auth as its principal', () => {
    expectTypeOf(guard(plants.service, { requiredScopes: ['a'] })).toExtend<Middleware>();
    expectTypeOf<DefaultState['auth']>().toEqualTypeOf<Principal | undefined>();
  });

  it('accept a created service or options, but not a basePath', () => {
    expectTypeOf(plantRoutes).parameter(0).toExtend<object>();
    const auth = () => Promise.resolve(undefined);
    // Never called: the check is the compiler's.
    const wrong = () =>
      // @ts-expect-error -- the mount point is called prefix here, as in @koa/router.
      plantRoutes({ store: memoryStore(), auth, basePath: '/a' });
    expectTypeOf(wrong).returns.toEqualTypeOf<PlantRoutes>();
  });

  it('refuse a misspelt option, as createPlantService does', () => {
    const auth = { verify: () => Promise.resolve(undefined) };
    // Never called: the check is the compiler's, with the suggestion "Did you mean to write
    // 'storeTimeout'?" (a union parameter would have hidden it).
    const misspelt = () =>
      // @ts-expect-error -- storeTimout is not an option
      plantRoutes({ store: memoryStore(), auth, storeTimout: 5 });
    const direct = () =>
      // @ts-expect-error -- nor of the service
      createPlantService({ store: memoryStore(), auth, storeTimout: 5 });
    expectTypeOf(misspelt).returns.toEqualTypeOf<PlantRoutes>();
    expectTypeOf(direct).returns.toEqualTypeOf<PlantService>();
  });
});

import type { MemoryStore, PlantStore } from '@plantstore/core';
import {
  EXPRESS_AT_ROOT,
  EXPRESS_MAJORS,
  expressTarget,
  type ExpressTargetOptions,
  type PlantRouterFactory,
} from './express-hosts';
import {
  FASTIFY_AT_ROOT,
  FASTIFY_MAJORS,
  fastifyTarget,
  type FastifyHostOptions,
  type PlantPluginFactory,
} from './fastify-hosts';
import type { HostHooks } from './host-hooks';
import type { ContractTarget } from './target';

/**
 * The target with the suite's memory store replaced by a store on a real server: the suite's store
 * then holds what the server gave back (a created plant is read back under its id), so the suite's
 * checks of what was stored, byte for byte, are checks of the server's record. Stores of the
 * suite's own (a failing store, a slow one) pass through unchanged.
 *
 * @param target - the host as the contract suite runs it
 * @param real - makes a fresh store on the server, for each start of the host
 * @returns the target on that store
 */
export function onRealStore(
  target: ContractTarget,
  real: () => Promise<PlantStore>,
): ContractTarget {
  return {
    passesOn: target.passesOn,
    async start(options, setup) {
      const mirror = options.store as Partial<MemoryStore>;
      if (typeof mirror.get !== 'function') return target.start(options, setup);
      const memory = options.store;
      const store = await real();
      const onServer: PlantStore = {
        async insert(plant, context) {
          const result = await store.insert(plant, context);
          if (result.created) {
            // The record as the server keeps it: asked for again under its id, the store reports it.
            const stored = await store.insert({ id: plant.id, name: '\u0000' }, context);
            if (!stored.created) await memory.insert(stored.existing, context);
          }
          return result;
        },
      };
      return target.start({ ...options, store: onServer }, setup);
    },
  };
}

/** The adapter modules a store package's contract file imports (`import * as express from …`). */
export interface LatestAdapters {
  readonly express: ExpressTargetOptions & { readonly plantRouter: PlantRouterFactory };
  readonly fastify: FastifyHostOptions & { readonly plantPlugin: PlantPluginFactory };
}

/**
 * Express 5 and Fastify 5 at the root, each on a fresh store of `real`: the hosts a store package
 * runs the HTTP contract on.
 *
 * @param adapters - `@plantstore/express` and `@plantstore/fastify`
 * @param real - makes a fresh store on the server
 * @returns each host by name, as `describeMountedContract` takes it
 */
export function latestHostsOn(
  { express, fastify }: LatestAdapters,
  real: () => Promise<PlantStore>,
): Readonly<Record<string, (hooks: HostHooks) => ContractTarget>> {
  return {
    'Express 5': (hooks) =>
      onRealStore(
        expressTarget(EXPRESS_MAJORS['Express 5'], express.plantRouter, {
          ...express,
          mounting: EXPRESS_AT_ROOT,
          hooks,
        }),
        real,
      ),
    'Fastify 5': (hooks) =>
      onRealStore(
        fastifyTarget(FASTIFY_MAJORS['Fastify 5'], fastify.plantPlugin, {
          ...fastify,
          mounting: FASTIFY_AT_ROOT,
          hooks,
        }),
        real,
      ),
  };
}

import type { MemoryStore, PlantStore } from '@plantstore/core';
import {
  EXPRESS_AT_ROOT,
  EXPRESS_MAJORS,
  expressTarget,
  type ExpressMetadataFactory,
  type PlantRouterFactory,
} from '../hosts/express-hosts';
import type { ContractTarget } from '../hosts/target';
import { describeMountedContract } from './mounted';

// A name the suite never sends: inserted under a stored id, it only reads the stored plant back
// (first write wins), and U+0000 would not do, since PostgreSQL refuses it in text.
const READ_BACK = 'plantstore: read back';

/** The adapters a store's contract runs on, handed in by the store's test (the kit depends on none). */
export interface StoreContractAdapters {
  readonly express: {
    readonly plantRouter: PlantRouterFactory;
    readonly protectedResourceMetadata: ExpressMetadataFactory;
  };
}

/**
 * The target with the suite's memory store replaced by the store under test: the suite's store then
 * holds what the engine gave back (a created plant is read back under its id), so the suite's checks
 * of what was stored, byte for byte, are checks of the engine's record. Stores of the suite's own (a
 * failing store, a slow one) pass through unchanged.
 */
function onStore(target: ContractTarget, openStore: () => Promise<PlantStore>): ContractTarget {
  return {
    passesOn: target.passesOn,
    async start(options, setup) {
      const mirror = options.store as Partial<MemoryStore>;
      if (typeof mirror.get !== 'function') return target.start(options, setup);
      const memory = options.store;
      const store = await openStore();
      const onServer: PlantStore = {
        async insert(plant, context) {
          const result = await store.insert(plant, context);
          if (result.created) {
            // The record as the engine keeps it: asked for again under its id, the store reports it.
            const stored = await store.insert({ ...plant, name: READ_BACK }, context);
            if (!stored.created) {
              const { name, tag } = stored.existing;
              const record = { ...plant, name };
              // The tag as the engine kept it: none when it answers NULL or nothing.
              if (tag == null) delete (record as { tag?: string }).tag;
              else Object.assign(record, { tag });
              await memory.insert(record, context);
            }
          }
          return result;
        },
      };
      return target.start({ ...options, store: onServer }, setup);
    },
  };
}

/**
 * Runs the contract's cases that a store can change (tag `store`: what is created, answered again
 * and refused as a conflict, exact to the last digit) on Express 5 at the root, with the plants kept
 * by a store of an engine: what a store package proves beside its conformance suite. The rest of the
 * contract goes through the same code whatever the store, and runs on the memory store.
 *
 * @param engine - how the run is named (`MySQL`, `Redis Cluster`)
 * @param adapters - `@plantstore/express`, as the test imports it
 * @param openStore - a fresh store (its own table or key prefix) for each host the suite starts
 * @example
 * ```ts
 * describeStoreContract('MySQL', { express }, async () => mysqlStore({ client: pool }));
 * ```
 */
export function describeStoreContract(
  engine: string,
  adapters: StoreContractAdapters,
  openStore: () => Promise<PlantStore>,
): void {
  const { express } = adapters;
  describeMountedContract(
    `Express 5 on ${engine},`,
    [{ name: 'at /' }],
    (_mounting, hooks) =>
      onStore(
        expressTarget(EXPRESS_MAJORS['Express 5'], express.plantRouter, {
          ...express,
          mounting: EXPRESS_AT_ROOT,
          hooks,
        }),
        openStore,
      ),
    { coverage: { only: ['store'] } },
  );
}

import type { MemoryStore, PlantStore } from '@plantstore/core';
import type { ContractTarget } from './target';

/**
 * The target with the suite's memory store replaced by a store on a real server (MySQL, Redis…):
 * the suite's store then holds what the server gave back (a created plant is read back from the
 * server under its id), so the suite's checks of what was stored, byte for byte, are checks of the
 * server's copy. Stores of the suite's own (a failing store, a slow one) pass through unchanged.
 *
 * @param target - the host's target, on the suite's memory store
 * @param open - a fresh store on the server, for each host the suite starts
 * @returns the target on that store
 */
export function onServerStore(
  target: ContractTarget,
  open: () => PlantStore | Promise<PlantStore>,
): ContractTarget {
  return {
    passesOn: target.passesOn,
    async start(options, setup) {
      const mirror = options.store as Partial<MemoryStore>;
      if (typeof mirror.get !== 'function') return target.start(options, setup);
      const memory = options.store;
      const store = await open();
      const onServer: PlantStore = {
        async insert(plant, context) {
          const result = await store.insert(plant, context);
          if (result.created) {
            // Asked for again under its id with another name, the store reports what it keeps.
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

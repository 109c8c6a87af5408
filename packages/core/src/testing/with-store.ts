import type { PlantStore } from '../plant/store';

/** How a suite gets a fresh store, and releases it. */
export interface StoreSource<S extends PlantStore> {
  readonly create: () => S | Promise<S>;
  readonly destroy?: ((store: S) => void | Promise<void>) | undefined;
}

/**
 * Wraps a suite's test so that it runs on a fresh store, released afterwards whatever the outcome.
 *
 * @param source - how to create and destroy a store
 * @returns the wrapper, for each `it`
 * @example
 * ```ts
 * const withStore = withFreshStore({ create: () => memoryStore() });
 * it('creates', withStore(async (store) => { await store.insert(record, context); }));
 * ```
 */
export function withFreshStore<S extends PlantStore>(
  source: StoreSource<S>,
): (test: (store: S) => Promise<void>) => () => Promise<void> {
  return (test) => async () => {
    const store = await source.create();
    try {
      await test(store);
    } finally {
      await source.destroy?.(store);
    }
  };
}

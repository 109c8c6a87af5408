import type { NewPlant } from './plant';
import type { InsertResult, PlantStore, StoreContext } from './store';

/** A {@link PlantStore} in a `Map`, with a look into what it holds for tests. */
export interface MemoryStore extends PlantStore {
  /** How many plants are stored. */
  readonly size: number;
  /** The plant with this id, if any. */
  get(id: bigint): NewPlant | undefined;
  /** Every stored plant, in insertion order. */
  values(): IterableIterator<NewPlant>;
}

/**
 * A store in process memory: the reference implementation of {@link PlantStore}, for tests and
 * development. It holds its plants only while the process lives and grows without bound.
 *
 * @returns a new, empty store
 * @example
 * ```ts
 * const store = memoryStore();
 * const service = createPlantService({ store, auth: jwtBearer({ secret }) });
 * ```
 */
export function memoryStore(): MemoryStore {
  const plants = new Map<bigint, NewPlant>();
  return {
    get size() {
      return plants.size;
    },
    get: (id) => plants.get(id),
    values: () => plants.values(),
    insert(plant: NewPlant, context: StoreContext): Promise<InsertResult> {
      // Check and set run in one synchronous step, so concurrent inserts of one id cannot interleave.
      if (context.signal.aborted) return Promise.reject(context.signal.reason as Error);
      const existing = plants.get(plant.id);
      if (existing !== undefined) return Promise.resolve({ created: false, existing });
      const record: NewPlant = Object.freeze(
        Object.assign(Object.create(null) as NewPlant, {
          id: plant.id,
          name: plant.name,
          ...(plant.tag === undefined ? {} : { tag: plant.tag }),
        }),
      );
      plants.set(plant.id, record);
      return Promise.resolve({ created: true });
    },
  };
}

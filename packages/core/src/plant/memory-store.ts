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
 * A stored copy. A class rather than `Object.create(null)`: V8 keeps null-prototype objects in slow
 * dictionary mode, about three times the memory per plant. Its prototype chain still ends at once
 * (`StoredPlant.prototype` has a null prototype), so nothing of `Object.prototype` shows through.
 */
class StoredPlant implements NewPlant {
  readonly id: bigint;
  readonly name: string;
  declare readonly tag?: string;

  constructor(plant: NewPlant) {
    this.id = plant.id;
    this.name = plant.name;
    if (plant.tag !== undefined) this.tag = plant.tag;
    Object.freeze(this);
  }
}
Object.setPrototypeOf(StoredPlant.prototype, null);

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
      plants.set(plant.id, new StoredPlant(plant));
      return Promise.resolve({ created: true });
    },
  };
}

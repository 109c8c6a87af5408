import type { NewPlant } from './plant';
import { cancellation } from '../common/cancellation';
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
  const plants = new Map<bigint | number, NewPlant>();
  return {
    get size() {
      return plants.size;
    },
    get: (id) => plants.get(keyOf(id)),
    values: () => plants.values(),
    insert(plant: NewPlant, context: StoreContext): Promise<InsertResult> {
      // Check and set run in one synchronous step, so concurrent inserts of one id cannot interleave.
      const cancelled = cancellation(context);
      if (cancelled.aborted) {
        const { reason } = cancelled;
        return Promise.reject(
          reason instanceof Error ? reason : new Error('aborted', { cause: reason }),
        );
      }
      const key = keyOf(plant.id);
      const existing = plants.get(key);
      if (existing !== undefined) return Promise.resolve({ created: false, existing });
      plants.set(key, new StoredPlant(plant));
      return Promise.resolve(CREATED);
    },
  };
}

const CREATED: InsertResult = Object.freeze({ created: true });

/**
 * The map key of an id: a number when it is exact as one, which V8 hashes and compares without
 * reading a bigint's digits, else the bigint itself. `1` and `1n` are different keys of a `Map`, but
 * an id is only ever stored under one form, so they never meet.
 */
function keyOf(id: bigint): bigint | number {
  return id >= MIN_SAFE && id <= MAX_SAFE ? Number(id) : id;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

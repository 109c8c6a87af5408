import type { PlantRecord, StoredPlant } from './plant';
import { storeGate, type StoreLifecycle } from '../store-kit/store-gate';
import type { InsertResult, PlantStore, StoreContext } from './store';
import { memoryOutbox, type MemoryOutbox } from './memory-outbox';
import type { OutboxEvent } from '../events/outbox';

/** A {@link PlantStore} in a `Map`, with a look into what it holds for tests. */
export interface MemoryStore extends Omit<PlantStore, 'ready' | 'close'>, StoreLifecycle {
  /** How many plants are stored. */
  readonly size: number;
  /** The plant with this id in this tenant (default `''`, tenants off), with its audit fields. */
  get(id: bigint, tenant?: string): StoredPlant | undefined;
  /** Every stored plant, in insertion order. */
  values(): IterableIterator<StoredPlant>;
  /** The events written with the plants (the service's `events` option), in memory: not durable. */
  readonly outbox: MemoryOutbox;
}

/**
 * A stored copy. A class rather than `Object.create(null)`: V8 keeps null-prototype objects in slow
 * dictionary mode, about three times the memory per plant. Its prototype chain still ends at once
 * (`KeptPlant.prototype` has a null prototype), so nothing of `Object.prototype` shows through.
 */
class KeptPlant implements StoredPlant {
  readonly id: bigint;
  readonly name: string;
  declare readonly tag?: string;
  readonly tenant: string;
  readonly createdBy: string | undefined;
  readonly clientId: string | undefined;
  readonly createdAt: Date;
  readonly tokenId: string | undefined;

  constructor(plant: PlantRecord) {
    this.id = plant.id;
    this.name = plant.name;
    if (plant.tag !== undefined) this.tag = plant.tag;
    this.tenant = plant.tenant;
    this.createdBy = plant.createdBy;
    this.clientId = plant.clientId;
    // A copy: the caller's Date is mutable, a stored plant is not.
    this.createdAt = new Date(plant.createdAt.getTime());
    this.tokenId = plant.tokenId;
    Object.freeze(this);
  }
}
Object.setPrototypeOf(KeptPlant.prototype, null);

/**
 * A store in process memory: the reference implementation of {@link PlantStore}, for tests and
 * development. It holds its plants only while the process lives and grows without bound; so does its
 * `outbox`, the events written with them when the service's `events` option is on.
 *
 * @returns a new, empty store
 * @example
 * ```ts
 * const store = memoryStore();
 * const service = createPlantService({ store, auth: jwtBearer({ secret }) });
 * ```
 */
export function memoryStore(): MemoryStore {
  // The key is (tenant, id): one map of ids per tenant, so an id stays a number or bigint key.
  const tenants = new Map<string, Map<bigint | number, KeptPlant>>();
  const all: KeptPlant[] = [];
  const gate = storeGate({ code: 'store_unavailable', what: 'The memory store' });
  // Check and set run in one synchronous step, so concurrent inserts of one id cannot interleave.
  const outbox = memoryOutbox();
  const insert = (plant: PlantRecord, event: OutboxEvent | undefined): Promise<InsertResult> => {
    let plants = tenants.get(plant.tenant);
    if (plants === undefined)
      tenants.set(plant.tenant, (plants = new Map<bigint | number, KeptPlant>()));
    const key = keyOf(plant.id);
    const existing = plants.get(key);
    if (existing !== undefined) return Promise.resolve({ created: false, existing });
    const kept = new KeptPlant(plant);
    plants.set(key, kept);
    all.push(kept);
    // In the same synchronous step as the plant: the event exists iff this insert created it.
    if (event !== undefined) outbox.append(event);
    return Promise.resolve(CREATED);
  };
  return {
    get size() {
      return all.length;
    },
    get: (id, tenant = '') => tenants.get(tenant)?.get(keyOf(id)),
    values: () => all.values(),
    outbox,
    insert: (plant: PlantRecord, context: StoreContext) =>
      gate.call(context, () => insert(plant, context.event)),
    ready: () => gate.ready(() => Promise.resolve()),
    close: () => gate.close(),
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

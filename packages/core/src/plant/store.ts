import type { PlantRecord, StoredPlant } from './plant';
import type { Principal } from '../auth/principal';
import type { PlantLogger } from '../http/plant-logger';
import type { EventOutbox, OutboxEvent } from '../events/outbox';

/** What a store is handed besides the plant. */
export interface StoreContext {
  /** Who is creating the plant. */
  readonly principal: Principal;
  /**
   * Fires when the store time-out passes (the client is then answered 503). A store should stop its
   * work and must not leave a half-written record.
   */
  readonly signal: AbortSignal;
  /**
   * The `plant.created` event, when the service's `events` option is on: a store with an `outbox`
   * writes it with the plant, atomically, only when it creates the plant.
   */
  readonly event?: OutboxEvent | undefined;
}

/** What {@link PlantStore.insert} reports: the plant was created, or one with its id already exists. */
export type InsertResult =
  { readonly created: true } | { readonly created: false; readonly existing: StoredPlant };

/**
 * Where plants are kept. One atomic primitive is enough: the core, not the store, decides between a
 * replay (200) and a conflict (409) from what `insert` reports, owner rule included. The key is
 * `(tenant, id)`: `tenant` is `''` when the service keeps one id space.
 *
 * @example
 * ```ts
 * const store: PlantStore = {
 *   async insert(plant) {
 *     const key = `${plant.tenant}:${plant.id}`;
 *     const existing = rows.get(key);
 *     if (existing) return { created: false, existing };
 *     rows.set(key, plant);
 *     return { created: true };
 *   },
 * };
 * ```
 */
export interface PlantStore {
  /**
   * Inserts `plant` (with its audit fields) unless a plant with its tenant and id exists,
   * atomically, and reports which happened, handing back the stored plant and its audit fields.
   * Throw a `ServiceUnavailableError('store_unavailable', …)` when the backend cannot be reached (the
   * client gets 503 and may retry); any other throw answers 500.
   */
  insert(plant: PlantRecord, context: StoreContext): Promise<InsertResult>;
  /**
   * Warms what can be warmed (a connection), for readiness probes. The service's `ready()` passes
   * its `logger` (`undefined` with `logger: false`), through which a store says once what the host
   * must act on, such as server settings under which an acknowledged create can be lost.
   */
  ready?(context?: { readonly logger: PlantLogger | undefined }): Promise<void>;
  /** Releases what the store holds. */
  close?(): Promise<void>;
  /**
   * Where this store keeps the events it writes with its plants, for the relay. A store without one
   * cannot serve a service whose `events` option is on (the service refuses it at start-up).
   */
  readonly outbox?: EventOutbox | undefined;
}

import type { NewPlant } from './plant';
import type { Principal } from '../auth/principal';

/** What a store is handed besides the plant. */
export interface StoreContext {
  /** Who is creating the plant. */
  readonly principal: Principal;
  /**
   * Fires when the store time-out passes (the client is then answered 503). A store should stop its
   * work and must not leave a half-written record.
   */
  readonly signal: AbortSignal;
}

/** What {@link PlantStore.insert} reports: the plant was created, or one with its id already exists. */
export type InsertResult =
  { readonly created: true } | { readonly created: false; readonly existing: NewPlant };

/**
 * Where plants are kept. One atomic primitive is enough: the core, not the store, decides between a
 * replay (200) and a conflict (409) from what `insert` reports.
 *
 * @example
 * ```ts
 * const store: PlantStore = {
 *   async insert(plant) {
 *     const existing = rows.get(plant.id);
 *     if (existing) return { created: false, existing };
 *     rows.set(plant.id, plant);
 *     return { created: true };
 *   },
 * };
 * ```
 */
export interface PlantStore {
  /**
   * Inserts `plant` unless a plant with its id exists, atomically, and reports which happened.
   * Throw a `ServiceUnavailableError('store_unavailable', …)` when the backend cannot be reached (the
   * client gets 503 and may retry); any other throw answers 500.
   */
  insert(plant: NewPlant, context: StoreContext): Promise<InsertResult>;
  /** Warms what can be warmed (a connection), for readiness probes. */
  ready?(): Promise<void>;
  /** Releases what the store holds. */
  close?(): Promise<void>;
}

import type { Principal } from '../auth/principal';
import type { StoreContext } from '../plant/store';
import type { NewPlant, PlantRecord } from '../plant/plant';

const principal: Principal = { subject: 'conformance', scopes: [], claims: {} };

/**
 * The context the store conformance cases insert with: one principal, and a signal that never
 * fires unless the case passes its own.
 *
 * @param signal - the insert's signal
 * @returns the context
 */
export function conformanceContext(
  signal: AbortSignal = new AbortController().signal,
): StoreContext {
  return { principal, signal };
}

/** The creation time of the conformance records: whole milliseconds, as every engine keeps them. */
const CREATED_AT = new Date('2026-01-02T03:04:05.678Z');

/**
 * A plant as the core hands it to a store, for a store's own tests: tenant `''` (tenants off) and a
 * test caller's audit fields, unless the test names its own.
 *
 * @param plant - the plant
 * @param fields - the tenant or audit fields the test sets
 * @returns the record
 * @example
 * ```ts
 * await store.insert(storeRecord({ id: 1n, name: 'Fern' }, { tenant: 'org-a' }), context);
 * ```
 */
export function storeRecord(
  plant: NewPlant,
  fields: Partial<Omit<PlantRecord, keyof NewPlant>> = {},
): PlantRecord {
  return {
    ...plant,
    tenant: '',
    createdBy: 'conformance',
    clientId: 'conformance-client',
    createdAt: CREATED_AT,
    tokenId: undefined,
    ...fields,
  };
}

export { storeRecord as conformanceRecord };

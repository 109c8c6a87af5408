import { ok } from 'node:assert/strict';
import { plantCreatedEvents } from '../events/cloud-event';
import type { DeliveryFailure, EventOutbox, OutboxEvent } from '../events/outbox';
import type { NewPlant, PlantRecord } from '../plant/plant';
import type { InsertResult, PlantStore } from '../plant/store';
import { conformanceContext, conformanceRecord } from './store-context';

/** The builder of the outbox cases' events. */
export const eventOf = plantCreatedEvents('urn:plantstore:conformance');

/**
 * The store's outbox, or a failure that says a store under the outbox suite must have one.
 *
 * @param store - the store under test
 * @returns its outbox
 */
export function outboxOf(store: PlantStore): EventOutbox {
  ok(
    typeof store.outbox === 'object' && store.outbox !== null,
    'the store must have an outbox (PlantStore.outbox) to run the outbox cases',
  );
  return store.outbox;
}

/**
 * Inserts `record` with `event`, as the service does when its `events` option is on.
 *
 * @param store - the store under test
 * @param record - the plant
 * @param event - its event, or none
 * @returns what the store answered
 */
export function insertWithEvent(
  store: PlantStore,
  record: PlantRecord,
  event: OutboxEvent | undefined,
): Promise<InsertResult> {
  return store.insert(record, { ...conformanceContext(), event });
}

/**
 * Creates `count` plants one after the other, each with its event.
 *
 * @param store - the store under test
 * @param count - how many
 * @param firstId - the first plant's id
 * @returns the events' ids, in the order written
 */
export async function writeEvents(
  store: PlantStore,
  count: number,
  firstId = 1n,
): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const plant: NewPlant = { id: firstId + BigInt(index), name: `plant ${index}` };
    const record = conformanceRecord(plant);
    const event = eventOf(record);
    const result = await insertWithEvent(store, record, event);
    ok(result.created, `plant ${plant.id} must be created on a fresh store`);
    ids.push(event.id);
  }
  return ids;
}

/**
 * A time `ms` after now: the cases settle and read on the clock they pass, never on the backend's.
 *
 * @param ms - milliseconds from now
 * @returns the time
 */
export function later(ms: number): Date {
  return new Date(Date.now() + ms);
}

/**
 * A failed delivery.
 *
 * @param attempts - the failed deliveries including this one
 * @param error - what failed
 * @param retryAt - when it is due again; `undefined` makes it dead
 * @returns the failure
 */
export function failure(
  attempts: number,
  error: string,
  retryAt: Date | undefined,
): DeliveryFailure {
  return { attempts, error, retryAt };
}

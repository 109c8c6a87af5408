import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import { INT64_MAX } from '../body/body-limits';
import type { PlantStore } from '../plant/store';
import { describeOutboxSettleCases } from './outbox-cases';
import { eventOf, insertWithEvent, later, outboxOf } from './outbox-fixtures';
import type { StoreConformanceOptions, TestRegistrar } from './store-conformance';
import { conformanceRecord as record } from './store-context';
import { withFreshStore } from './with-store';

/**
 * Registers the conformance suite of a store's `EventOutbox` with your test runner: every
 * store that writes events, ours and yours, must pass it. Each failure names the rule broken.
 *
 * What it checks: the event is written iff the insert creates the plant (a replay, a conflict and
 * 20 parallel creates of one id write exactly one), its body and fields are kept byte for byte;
 * `due` lists events oldest first and only those due; `delivered` removes; `failed` with a later
 * `retryAt` hides an event until then and keeps its attempts, without one makes it dead (listed by
 * `dead`, never due); `redrive` makes it due again with 0 attempts; and the lease is exclusive
 * between two holders (two instances, given `createPeer`), renewable, taken over after expiry and
 * released. The suite passes its own `now` to every call: a store compares with it, not its clock.
 *
 * @param runner - `{ describe, it }` of vitest (or jest, or node:test)
 * @param name - the store's name, for the report
 * @param options - how to create (and destroy) a fresh store with an empty outbox, and a peer
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { describeOutboxConformance } from '@plantstore/core/testing';
 * describeOutboxConformance({ describe, it }, 'memory store', { create: () => memoryStore() });
 * ```
 */
export function describeOutboxConformance<S extends PlantStore>(
  { describe, it }: TestRegistrar,
  name: string,
  options: Pick<StoreConformanceOptions<S>, 'create' | 'destroy' | 'createPeer'>,
): void {
  describe(`EventOutbox conformance: ${name}`, () => {
    const withStore = withFreshStore(options);

    it(
      'writes the event with the plant when the insert creates it, and none without one',
      withStore(async (store) => {
        const outbox = outboxOf(store);
        await insertWithEvent(store, record({ id: 1n, name: 'no event' }), undefined);
        deepStrictEqual(
          await outbox.due(10, later(0)),
          [],
          'an insert without an event writes none',
        );
        const fern = record({ id: 2n, name: 'Fern' });
        const event = eventOf(fern);
        ok((await insertWithEvent(store, fern, event)).created, 'plant 2 must be created');
        const due = await outbox.due(10, later(0));
        deepStrictEqual(
          due.map((pending) => pending.id),
          [event.id],
          'the event must be written with the plant it came with, and be due at once',
        );
        strictEqual(due[0]?.attempts, 0, 'a new event has 0 attempts');
      }),
    );

    it(
      'writes no event for a replay or a conflict',
      withStore(async (store) => {
        const outbox = outboxOf(store);
        const fern = record({ id: 3n, name: 'Fern' });
        const first = eventOf(fern);
        await insertWithEvent(store, fern, first);
        const replay = await insertWithEvent(store, fern, eventOf(fern));
        const other = record({ id: 3n, name: 'Other' });
        const conflict = await insertWithEvent(store, other, eventOf(other));
        ok(!replay.created && !conflict.created, 'id 3 exists: neither insert creates');
        deepStrictEqual(
          (await outbox.due(10, later(0))).map((pending) => pending.id),
          [first.id],
          'an insert that does not create the plant must not write its event (one transaction)',
        );
      }),
    );

    it(
      'writes exactly one event for 20 parallel creates of one id: the creator\u2019s',
      withStore(async (store) => {
        const outbox = outboxOf(store);
        const attempts = Array.from({ length: 20 }, (_, index) => {
          const plant = record({ id: 4n, name: `attempt ${index}` });
          return { plant, event: eventOf(plant) };
        });
        const results = await Promise.all(
          attempts.map(({ plant, event }) => insertWithEvent(store, plant, event)),
        );
        const winners = attempts.filter((_, index) => results[index]?.created === true);
        strictEqual(winners.length, 1, 'one of 20 parallel inserts of one id creates it');
        deepStrictEqual(
          (await outbox.due(100, later(0))).map((pending) => pending.id),
          [winners[0]?.event.id],
          'exactly the creating insert\u2019s event is written: event and plant in one atomic step',
        );
      }),
    );

    it(
      'keeps the event byte for byte: body, id, type, tenant, exact plant id and time',
      withStore(async (store) => {
        const outbox = outboxOf(store);
        const plant = record(
          { id: INT64_MAX, name: 'quote " \\ \u2028 🌵 e\u0301 \u00e9  ', tag: '' },
          { tenant: 'org-ü', createdBy: "o'brien" },
        );
        const event = eventOf(plant);
        await insertWithEvent(store, plant, event);
        const [kept] = await outbox.due(1, later(0));
        ok(kept !== undefined, 'the event must be due');
        strictEqual(kept.body, event.body, 'the body must come back byte for byte');
        strictEqual(kept.id, event.id, 'the id must be kept');
        strictEqual(kept.type, 'plant.created', 'the type must be kept');
        strictEqual(kept.tenant, 'org-ü', 'the tenant must be kept');
        strictEqual(kept.plantId, INT64_MAX, 'the plant id must be an exact bigint');
        strictEqual(kept.time.getTime(), event.time.getTime(), 'the time must be kept to the ms');
      }),
    );

    describeOutboxSettleCases(it, withStore, options.createPeer);
  });
}

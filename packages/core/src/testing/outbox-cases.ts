import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import type { EventOutbox, PendingEvent } from '../events/outbox';
import type { PlantStore } from '../plant/store';
import { failure, later, outboxOf, writeEvents } from './outbox-fixtures';

/**
 * Registers the settlement and lease cases of `describeOutboxConformance`: what `due`, `delivered`,
 * `failed`, `dead`, `redrive`, `lease` and `release` do to the events a store wrote.
 *
 * @param it - the runner's `it`
 * @param withStore - runs a test on a fresh store
 * @param createPeer - opens a second instance on the backend of a store, when the caller gives one
 */
export function describeOutboxSettleCases<S extends PlantStore>(
  it: (name: string, body: () => Promise<void>) => unknown,
  withStore: (test: (store: S) => Promise<void>) => () => Promise<void>,
  createPeer: ((store: S) => S | Promise<S>) | undefined,
): void {
  const ids = (events: readonly PendingEvent[]) => events.map((event) => event.id);

  it(
    'hands out due events oldest first, in the order written, up to the limit',
    withStore(async (store) => {
      const outbox = outboxOf(store);
      const written = await writeEvents(store, 5);
      const now = later(0);
      deepStrictEqual(ids(await outbox.due(10, now)), written, 'due must list events oldest first');
      deepStrictEqual(
        ids(await outbox.due(2, now)),
        written.slice(0, 2),
        'due(limit) must give at most limit events, the oldest',
      );
    }),
  );

  it(
    'removes delivered events, and ignores ids it does not hold',
    withStore(async (store) => {
      const outbox = outboxOf(store);
      const [first, second, third] = await writeEvents(store, 3);
      await outbox.delivered([first ?? '', 'not-an-event-id']);
      await outbox.delivered([third ?? '']);
      deepStrictEqual(
        ids(await outbox.due(10, later(0))),
        [second],
        'delivered(ids) must remove those events: a delivered event is never handed out again',
      );
      deepStrictEqual(await outbox.dead(10), [], 'a delivered event is not dead');
    }),
  );

  it(
    'hides a failed event until its retryAt, and counts its attempts',
    withStore(async (store) => {
      const outbox = outboxOf(store);
      const [first, second] = await writeEvents(store, 2);
      await outbox.failed(first ?? '', failure(1, 'HTTP 503', later(60_000)));
      deepStrictEqual(
        ids(await outbox.due(10, later(0))),
        [second],
        'an event failed with a later retryAt must not be due before it',
      );
      await outbox.failed(second ?? '', failure(1, 'HTTP 500', later(30_000)));
      const due = await outbox.due(10, later(120_000));
      deepStrictEqual(ids(due), [first, second], 'past retryAt, both are due, oldest first');
      strictEqual(due[0]?.attempts, 1, 'failed() must keep failure.attempts');
      strictEqual(due[0]?.lastError, 'HTTP 503', 'failed() must keep failure.error as lastError');
      await outbox.failed(first ?? '', failure(2, 'time-out', later(1_000)));
      strictEqual((await outbox.due(1, later(120_000)))[0]?.attempts, 2, 'attempts count up');
    }),
  );

  it(
    'makes an event dead when a failure has no retryAt: listed by dead, never due',
    withStore(async (store) => {
      const outbox = outboxOf(store);
      const [first, second] = await writeEvents(store, 2);
      await outbox.failed(first ?? '', failure(5, 'HTTP 410', undefined));
      deepStrictEqual(
        ids(await outbox.due(10, later(10 ** 10))),
        [second],
        'a dead event is never due',
      );
      const dead = await outbox.dead(10);
      deepStrictEqual(ids(dead), [first], 'dead() must list the dead event');
      strictEqual(dead[0]?.attempts, 5, 'a dead event keeps its attempts');
      strictEqual(dead[0]?.lastError, 'HTTP 410', 'a dead event keeps its last error');
    }),
  );

  it(
    'redrives dead events: due again at once, with no attempts',
    withStore(async (store) => {
      const outbox = outboxOf(store);
      const [first, second, third] = await writeEvents(store, 3);
      for (const id of [first, second]) await outbox.failed(id ?? '', failure(3, 'x', undefined));
      strictEqual(
        await outbox.redrive([first ?? '', third ?? '']),
        1,
        'redrive(ids) counts the dead it moved',
      );
      deepStrictEqual(ids(await outbox.dead(10)), [second], 'the others stay dead');
      const due = await outbox.due(10, later(0));
      deepStrictEqual(ids(due), [first, third], 'a redriven event is due at once, in its place');
      strictEqual(due[0]?.attempts, 0, 'a redriven event starts again at 0 attempts');
      strictEqual(await outbox.redrive(), 1, 'redrive() moves every dead event');
      deepStrictEqual(await outbox.dead(10), [], 'none is left dead');
    }),
  );

  it(
    'keeps the lease exclusive between two holders, renewable, taken over after expiry, released',
    withStore(async (store) => {
      const a = outboxOf(store);
      const b: EventOutbox = createPeer === undefined ? a : outboxOf(await createPeer(store));
      const t = later(0).getTime();
      const at = (ms: number) => new Date(t + ms);
      ok(await a.lease('relay-a', 10_000, at(0)), 'a free lease must be taken');
      ok(
        !(await b.lease('relay-b', 10_000, at(1_000))),
        'a held lease must not go to another holder',
      );
      ok(await a.lease('relay-a', 10_000, at(8_000)), 'the holder must be able to renew its lease');
      ok(!(await b.lease('relay-b', 10_000, at(12_000))), 'a renewed lease lasts from its renewal');
      ok(
        await b.lease('relay-b', 10_000, at(18_001)),
        'an expired lease must go to another holder',
      );
      ok(!(await a.lease('relay-a', 10_000, at(19_000))), 'the old holder lost it');
      await a.release('relay-a');
      ok(
        !(await a.lease('relay-a', 10_000, at(19_500))),
        'release by a non-holder changes nothing',
      );
      await b.release('relay-b');
      ok(await a.lease('relay-a', 10_000, at(20_000)), 'a released lease must be free at once');
    }),
  );
}

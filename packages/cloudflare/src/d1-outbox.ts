import type { DeadEvent, EventOutbox, PendingEvent, StoreGate } from '@plantstore/core/store-kit';
import * as sql from './d1-outbox-sql';
import type { D1DatabaseLike, D1ResultLike } from './d1-types';

interface EventRow {
  readonly id: string;
  readonly tenant: string;
  readonly plantId: string;
  readonly time: number;
  readonly body: string;
  readonly attempts: number;
  readonly lastError: string | null;
}

function pendingOf(row: unknown): PendingEvent {
  const event = row as EventRow;
  return {
    id: event.id,
    type: 'plant.created',
    tenant: event.tenant,
    plantId: BigInt(event.plantId),
    time: new Date(Number(event.time)),
    body: event.body,
    attempts: Number(event.attempts),
    lastError: event.lastError ?? undefined,
  };
}

function deadOf(row: unknown): DeadEvent {
  const event = pendingOf(row);
  return { ...event, lastError: event.lastError ?? '' };
}

/**
 * The {@link EventOutbox} of a D1 store: the events in `plants_events` in write order (`seq`),
 * settled by one statement each, the lease one upsert judged by the relay's `now`. Every call goes
 * through the store's gate, bounded by the store time-out (D1 cannot cancel a statement under way).
 *
 * @param db - the D1 binding
 * @param gate - the store's gate
 * @returns the outbox
 * @example
 * ```ts
 * const outbox = d1Outbox(env.DB, gate);
 * ```
 */
export function d1Outbox(db: D1DatabaseLike, gate: StoreGate): EventOutbox {
  const run = async (query: string, ...values: unknown[]): Promise<D1ResultLike> => {
    const [result] = await db.batch([db.prepare(query).bind(...values)]);
    return result ?? {};
  };
  const changes = (result: D1ResultLike): number => Number(result.meta?.changes ?? 0);
  return {
    lease: (holder, ms, now) =>
      gate.bounded(async () => {
        const at = now.getTime();
        return changes(await run(sql.LEASE, holder, at + ms, at)) === 1;
      }),
    release: (holder) =>
      gate.bounded(async () => {
        await run(sql.RELEASE, holder);
      }),
    due: (limit, now) =>
      gate.bounded(async () =>
        ((await run(sql.DUE, now.getTime(), limit)).results ?? []).map(pendingOf),
      ),
    delivered: (ids) =>
      gate.bounded(async () => {
        if (ids.length > 0) await run(sql.DELIVERED, JSON.stringify(ids));
      }),
    failed: (id, failure) =>
      gate.bounded(async () => {
        const { retryAt } = failure;
        const dead = retryAt === undefined ? 1 : 0;
        await run(sql.FAILED, id, failure.attempts, failure.error, retryAt?.getTime() ?? 0, dead);
      }),
    dead: (limit) =>
      gate.bounded(async () => ((await run(sql.DEAD, limit)).results ?? []).map(deadOf)),
    redrive: (ids) =>
      gate.bounded(async () => {
        if (ids === undefined) return changes(await run(sql.REDRIVE_ALL));
        if (ids.length === 0) return 0;
        return changes(await run(sql.REDRIVE_SOME, JSON.stringify(ids)));
      }),
  };
}

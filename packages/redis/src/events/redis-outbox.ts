import type { Cancellation } from '@plantstore/core';
import type { DeadEvent, EventOutbox, PendingEvent, StoreGate } from '@plantstore/core/store-kit';
import type { RedisRunner } from '../clients';
import { text } from '../plant-hash';
import { bucketKeys, type BucketKeys } from './outbox-keys';
import * as scripts from './outbox-scripts';

/** What {@link redisOutbox} works with: the store's runner, gate, prefix and bucket count. */
export interface RedisOutboxParts {
  readonly runner: RedisRunner;
  readonly gate: StoreGate;
  readonly prefix: string;
  readonly buckets: number;
}

// The relay's own entries a due() call looks at per bucket, at most: events waiting for a retry
// are skipped, and a backlog of them must not make one call read a whole stream.
const SCAN_FACTOR = 10;
const SCAN_MIN = 1_000;
// The bucket of each event handed out, so that settling it runs on its bucket alone; an id not
// there (another process, a restart) is looked for in every bucket. Only a hint: cleared when big.
const HINTS_MAX = 100_000;

const rows = (reply: unknown): unknown[][] =>
  Array.isArray(reply) ? reply.filter((row): row is unknown[] => Array.isArray(row)) : [];
const str = (value: unknown): string =>
  typeof value === 'number' ? String(value) : (text(value) ?? '');
function pendingOf(row: readonly unknown[]): PendingEvent & { readonly at: number } {
  const [at, id, tenant, plant, time, body, attempts, error] = row.map(str);
  return {
    // Microseconds since 1970: exact in a double until the year 2255.
    at: Number(at),
    id: id ?? '',
    type: 'plant.created',
    tenant: tenant ?? '',
    plantId: BigInt(plant ?? '0'),
    time: new Date(Number(time)),
    body: body ?? '',
    attempts: Number(attempts),
    lastError: error === '' ? undefined : error,
  };
}

function deadOf(row: readonly unknown[]): DeadEvent & { readonly at: number } {
  const [id = '', held = '[]'] = row.map(str);
  const [tenant = '', plant = '0', time = '0', body = '', attempts = '0', error = '', at = '0'] =
    JSON.parse(held) as string[];
  const event = { id, type: 'plant.created' as const, tenant, plantId: BigInt(plant), body };
  const settled = { attempts: Number(attempts), lastError: error, at: Number(at) };
  return { ...event, time: new Date(Number(time)), ...settled };
}

/**
 * The {@link EventOutbox} of a Redis store: each bucket's pending events in a stream beside its
 * plants (one slot), their tries, dead events and index in the same slot, the lease one key. Every
 * call goes through the store's gate, bounded by the store time-out.
 *
 * @param parts - the store's runner, gate, prefix and bucket count
 * @returns the outbox
 * @example
 * ```ts
 * const outbox = redisOutbox({ runner, gate, prefix: 'plant:', buckets: 16 });
 * ```
 */
export function redisOutbox(parts: RedisOutboxParts): EventOutbox {
  const { runner, gate } = parts;
  const keys: readonly BucketKeys[] = Array.from({ length: parts.buckets }, (_, bucket) =>
    bucketKeys(`${parts.prefix}{${bucket}}`),
  );
  const lease = `${parts.prefix}~events:lease`;
  const hints = new Map<string, number>();
  const all = keys.map((_, bucket) => bucket);

  /** The ids by bucket: a hinted id on its bucket, any other on every bucket. */
  const byBucket = (ids: readonly string[]): Map<number, string[]> => {
    const found = new Map<number, string[]>();
    for (const id of ids) {
      const hinted = hints.get(id);
      for (const bucket of hinted === undefined ? all : [hinted]) {
        found.set(bucket, [...(found.get(bucket) ?? []), id]);
      }
      hints.delete(id);
    }
    return found;
  };
  const onBuckets = (
    ids: readonly string[],
    cancelled: Cancellation,
    send: (bucket: BucketKeys, ids: string[]) => [string, string[], string[]],
  ): Promise<unknown[]> =>
    Promise.all(
      [...byBucket(ids)].map(([bucket, some]) => {
        const [script, on, args] = send(keys[bucket] as BucketKeys, some);
        return runner.eval(script, on, args, cancelled);
      }),
    );
  const counted = (replies: readonly unknown[]): number =>
    replies.reduce<number>((sum, reply) => sum + Number(reply), 0);

  return {
    lease: (holder, ms, now) =>
      gate.bounded(async (cancelled) => {
        const args = [holder, String(now.getTime()), String(ms)];
        const answer = await runner.eval(scripts.TAKE_LEASE, lease, args, cancelled);
        return Number(answer) === 1;
      }),
    release: (holder) =>
      gate.bounded(async (cancelled) => {
        await runner.eval(scripts.RELEASE_LEASE, lease, [holder], cancelled);
      }),
    due: (limit, now) =>
      gate.bounded(async (cancelled) => {
        const scan = String(Math.max(SCAN_MIN, limit * SCAN_FACTOR));
        const args = [String(limit), String(now.getTime()), scan];
        const replies = await Promise.all(
          keys.map((on) => runner.eval(scripts.DUE_EVENTS, [on.stream, on.tries], args, cancelled)),
        );
        const found = replies.flatMap((reply, bucket) =>
          rows(reply).map((row) => ({ bucket, event: pendingOf(row) })),
        );
        // Each bucket's are in its stream's order; across buckets, by the server's clock.
        found.sort((a, b) => a.event.at - b.event.at);
        if (hints.size > HINTS_MAX) hints.clear();
        return found.slice(0, limit).map(({ bucket, event: { at: _at, ...event } }) => {
          hints.set(event.id, bucket);
          return event;
        });
      }),
    delivered: (ids) =>
      gate.bounded(async (cancelled) => {
        await onBuckets(ids, cancelled, (on, some) => [
          scripts.DELIVERED_EVENTS,
          [on.stream, on.index, on.tries],
          some,
        ]);
      }),
    failed: (id, failure) =>
      gate.bounded(async (cancelled) => {
        const retryAt = failure.retryAt === undefined ? '' : String(failure.retryAt.getTime());
        const args = [id, String(failure.attempts), retryAt, failure.error];
        // A retried event stays where it is: its bucket is hinted again for the next settlement.
        const hinted = hints.get(id);
        await onBuckets([id], cancelled, (on) => [
          scripts.FAILED_EVENT,
          [on.stream, on.index, on.tries, on.dead, on.held],
          args,
        ]);
        if (hinted !== undefined && retryAt !== '') hints.set(id, hinted);
      }),
    dead: (limit) =>
      gate.bounded(async (cancelled) => {
        const replies = await Promise.all(
          keys.map((on) =>
            runner.eval(scripts.DEAD_EVENTS, [on.dead, on.held], [String(limit)], cancelled),
          ),
        );
        const found = replies.flatMap((reply) => rows(reply).map(deadOf));
        found.sort((a, b) => a.at - b.at);
        return found.slice(0, limit).map(({ at: _at, ...event }) => event);
      }),
    redrive: (ids) =>
      gate.bounded(async (cancelled) => {
        if (ids !== undefined && ids.length === 0) return 0;
        const on = (bucket: BucketKeys): string[] => [
          bucket.stream,
          bucket.index,
          bucket.dead,
          bucket.held,
        ];
        if (ids !== undefined) {
          const replies = await onBuckets(ids, cancelled, (bucket, some) => [
            scripts.REDRIVE_EVENTS,
            on(bucket),
            some,
          ]);
          return counted(replies);
        }
        const replies = await Promise.all(
          keys.map((bucket) => runner.eval(scripts.REDRIVE_EVENTS, on(bucket), [], cancelled)),
        );
        return counted(replies);
      }),
  };
}

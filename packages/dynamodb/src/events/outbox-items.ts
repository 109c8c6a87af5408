import type { DeadEvent, OutboxEvent, PendingEvent } from '@plantstore/core/store-kit';
import type { AttributeValue, Item } from '../plant-item';

// The outbox table beside the plants' (`${table}.events`; key `pk` S and sort key `sk` S) holds
// three kinds of item:
// - an event in a queue: `pk` `due#<shard>` (pending) or `dead#<shard>`, `sk` its place in the
//   write order (`<17-digit microseconds>#<event id>`), with the event, its attempts, `retryAt`
//   (epoch ms, 0 when due at once) and `lastError`. `due` and `dead` query the shards' partitions
//   in sort-key order and merge them: no Scan;
// - the event's index, `pk` `event#<id>`, `sk` `-`: which queue item holds it (`queue`, `at`), so
//   that the relay's settlement, which knows ids only, finds it with one read;
// - the relay's lease, `pk` `lease`, `sk` `-`: `holder` and `ends` (epoch ms).

/** How many partitions the pending (and the dead) events are spread over. */
export const SHARDS = 4;
/** The sort key of the items that have none of their own. */
export const NO_SORT = '-';
/** The key of the lease item. */
export const LEASE_KEY: Item = { pk: { S: 'lease' }, sk: { S: NO_SORT } };

/**
 * The queue items a `due()` call reads per shard at most: events waiting for a retry are skipped
 * by its filter, and a backlog of them must not make one call read a whole partition.
 */
export function dueBudget(limit: number): number {
  return Math.max(1_000, limit * 10);
}

/** A queue's partition: `due#2`, `dead#2`. */
export type Queue = `${'due' | 'dead'}#${number}`;

/** Where an event's queue item is, as its index item says. */
export interface EventPlace {
  readonly queue: Queue;
  readonly at: string;
}

const s = (value: string): AttributeValue => ({ S: value });
const n = (value: number | bigint): AttributeValue => ({ N: String(value) });

/** The key of an event's index item. */
export function indexKey(id: string): Item {
  return { pk: s(`event#${id}`), sk: s(NO_SORT) };
}

/** The key of the queue item at `place`. */
export function queueKey(place: EventPlace): Item {
  return { pk: s(place.queue), sk: s(place.at) };
}

/** The shard of a plant's events (FNV-1a of its key): one plant's events stay in one partition. */
export function shardOf(tenant: string, plantId: bigint): number {
  let hash = 0x811c9dc5;
  for (const char of `${tenant}#${plantId}`) {
    hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193);
  }
  return (hash >>> 0) % SHARDS;
}

let last = 0;
/**
 * The write-order place of a new event: microseconds since 1970, never twice the same in this
 * process (so events written within one millisecond keep their order), zero-padded to sort as text.
 */
export function nextPlace(id: string): string {
  last = Math.max(Date.now() * 1000, last + 1);
  return `${String(last).padStart(17, '0')}#${id}`;
}

/** The queue item and the index item of a new event, due at once. */
export function newEventItems(event: OutboxEvent): [Item, Item] {
  const place: EventPlace = {
    queue: `due#${shardOf(event.tenant, event.plantId)}`,
    at: nextPlace(event.id),
  };
  return [queueItem(place, event, 0, 0, undefined), indexItem(event.id, place)];
}

/** The index item of event `id`, at `place`. */
export function indexItem(id: string, place: EventPlace): Item {
  return { ...indexKey(id), queue: s(place.queue), at: s(place.at) };
}

/** A queue item: the event at `place`, with its delivery state. */
export function queueItem(
  place: EventPlace,
  event: OutboxEvent,
  attempts: number,
  retryAt: number,
  lastError: string | undefined,
): Item {
  const item: Record<string, AttributeValue> = {
    ...queueKey(place),
    id: s(event.id),
    tenant: s(event.tenant),
    plantId: n(event.plantId),
    time: n(event.time.getTime()),
    body: s(event.body),
    attempts: n(attempts),
    retryAt: n(retryAt),
  };
  if (lastError !== undefined) item['lastError'] = s(lastError);
  return item;
}

type Raw = Readonly<Record<string, { readonly S?: string; readonly N?: string } | undefined>>;

/** The place an index item names, or `undefined` for no item. */
export function placeOf(item: unknown): EventPlace | undefined {
  const raw = item as Raw | undefined;
  const queue = raw?.['queue']?.S;
  const at = raw?.['at']?.S;
  return queue === undefined || at === undefined ? undefined : { queue: queue as Queue, at };
}

/** The event of a queue item, with its attempts and last error. */
export function pendingOf(item: unknown): PendingEvent {
  const raw = (item ?? {}) as Raw;
  const error = raw['lastError']?.S;
  return {
    id: raw['id']?.S ?? '',
    type: 'plant.created',
    tenant: raw['tenant']?.S ?? '',
    plantId: BigInt(raw['plantId']?.N ?? '0'),
    time: new Date(Number(raw['time']?.N ?? '0')),
    body: raw['body']?.S ?? '',
    attempts: Number(raw['attempts']?.N ?? '0'),
    lastError: error,
  };
}

/** The dead event of a queue item of a dead queue. */
export function deadOf(item: unknown): DeadEvent {
  const event = pendingOf(item);
  return { ...event, lastError: event.lastError ?? '' };
}

/** The sort key of a queue item, for merging the shards' pages. */
export function sortKeyOf(item: unknown): string {
  return (item as Raw | undefined)?.['sk']?.S ?? '';
}

import type { DeadEvent, EventOutbox, OutboxEvent, PendingEvent } from '../events/outbox';

/** An event in the memory outbox and its delivery state. */
interface Entry {
  readonly event: OutboxEvent;
  attempts: number;
  lastError: string | undefined;
  /** When it is due again (ms since the epoch); `undefined`: dead. */
  dueAt: number | undefined;
}

/** The memory store's outbox: the `EventOutbox` the relay reads, and the store's way in. */
export interface MemoryOutbox extends EventOutbox {
  /** Keeps `event`: the memory store calls it in the same synchronous step as it stores the plant. */
  append(event: OutboxEvent): void;
}

/**
 * An outbox in process memory, the reference implementation of `EventOutbox`: for tests and
 * development. Not durable: its events, like the memory store's plants, are gone with the process,
 * and the lease only excludes relays of this process.
 *
 * @returns a new, empty outbox
 * @example
 * ```ts
 * const outbox = memoryOutbox();
 * outbox.append(event);
 * await outbox.due(10, new Date()); // [event, with attempts 0]
 * ```
 */
export function memoryOutbox(): MemoryOutbox {
  // A Map keeps the order events were written in: `due` and `dead` read it oldest first.
  const entries = new Map<string, Entry>();
  let holder: string | undefined;
  let leaseEnds = 0;
  const pending = (entry: Entry): PendingEvent => ({
    ...entry.event,
    attempts: entry.attempts,
    lastError: entry.lastError,
  });
  const take = <T>(limit: number, pick: (entry: Entry) => T | undefined): T[] => {
    const taken: T[] = [];
    for (const entry of entries.values()) {
      if (taken.length >= limit) break;
      const value = pick(entry);
      if (value !== undefined) taken.push(value);
    }
    return taken;
  };
  return {
    append(event) {
      entries.set(event.id, { event, attempts: 0, lastError: undefined, dueAt: 0 });
    },
    lease(by, ms, now) {
      const at = now.getTime();
      if (holder !== undefined && holder !== by && leaseEnds > at) return Promise.resolve(false);
      holder = by;
      leaseEnds = at + ms;
      return Promise.resolve(true);
    },
    release(by) {
      if (holder === by) holder = undefined;
      return Promise.resolve();
    },
    due(limit, now) {
      const at = now.getTime();
      return Promise.resolve(
        take(limit, (entry) =>
          entry.dueAt !== undefined && entry.dueAt <= at ? pending(entry) : undefined,
        ),
      );
    },
    delivered(ids) {
      for (const id of ids) entries.delete(id);
      return Promise.resolve();
    },
    failed(id, failure) {
      const entry = entries.get(id);
      if (entry !== undefined) {
        entry.attempts = failure.attempts;
        entry.lastError = failure.error;
        entry.dueAt = failure.retryAt?.getTime();
      }
      return Promise.resolve();
    },
    dead(limit) {
      return Promise.resolve(
        take(limit, (entry): DeadEvent | undefined =>
          entry.dueAt === undefined
            ? { ...entry.event, attempts: entry.attempts, lastError: entry.lastError ?? '' }
            : undefined,
        ),
      );
    },
    redrive(ids) {
      let count = 0;
      for (const entry of ids === undefined ? entries.values() : idsOf(entries, ids)) {
        if (entry.dueAt !== undefined) continue;
        entry.dueAt = 0;
        entry.attempts = 0;
        count += 1;
      }
      return Promise.resolve(count);
    },
  };
}

function* idsOf(entries: Map<string, Entry>, ids: readonly string[]): Iterable<Entry> {
  for (const id of ids) {
    const entry = entries.get(id);
    if (entry !== undefined) yield entry;
  }
}

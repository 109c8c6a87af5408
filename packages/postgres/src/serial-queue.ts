import type { Cancellation } from '@plantstore/core';
import { abortError } from '@plantstore/core/store-kit';
import { NEVER_CANCELLED, raceAbort } from './abortable';

/** Runs statements on one connection one after another. */
export interface SerialQueue {
  /**
   * Runs `work` once the statements before it have ended; rejects at once when `cancelled` fires. Work
   * still waiting for its turn is then never started; work under way goes on, and `cancel` (when
   * given) is called, the next work starting only once both have ended.
   */
  run<T>(
    work: () => Promise<T>,
    cancelled?: Cancellation,
    cancel?: () => Promise<unknown>,
  ): Promise<T>;
  /** Settles once everything this queue was given so far, and every cancel it started, has ended. */
  drained(): Promise<void>;
}

/** One statement in the queue: what its caller awaits, and when the queue is past it. */
interface Turn<T> {
  readonly result: Promise<T>;
  /** Settles once the statement, and the cancel it may have sent, have ended. Never rejects. */
  readonly done: Promise<void>;
}

type Enqueue = <T>(
  work: () => Promise<T>,
  cancelled?: Cancellation,
  cancel?: () => Promise<unknown>,
) => Turn<T>;

const noop = (): undefined => undefined;

/**
 * The queue of statements of a single connection: pg deprecates queueing queries on a busy Client,
 * a statement aborted while it waits here is never sent at all, and a cancel sent for a statement
 * under way cannot reach the statement after it.
 */
function connectionTurns(): Enqueue {
  let tail: Promise<void> = Promise.resolve();
  return (work, cancelled = NEVER_CANCELLED, cancel) => {
    let cancelling: Promise<unknown> | undefined;
    const turn = tail.then(() => {
      if (cancelled.aborted) throw abortError(cancelled);
      if (cancel === undefined) return work();
      const stopListening = cancelled.onAbort(() => {
        cancelling = cancel();
      });
      const running = work();
      running.then(stopListening, stopListening);
      return running;
    });
    // The next statement waits for this one and, when one was sent, for its cancel.
    let done = turn.then(noop, noop);
    if (cancel !== undefined) done = done.then(() => cancelling).then(noop, noop);
    tail = done;
    return { result: raceAbort(turn, cancelled), done };
  };
}

// Every store given one connection (a pg Client, a PGlite) queues on that connection's one queue.
// With a queue each, a statement timing out in pg's own queue was taken for the one under way: its
// cancel stopped the other store's statement, and it ran and committed after its caller heard 503.
const queues = new WeakMap<object, Enqueue>();

/**
 * The queue of one connection as one store sees it: the statements of every store on the connection
 * run one at a time, in the order given, and `drained` waits for this store's statements only.
 *
 * @param connection - the pg Client or PGlite instance the statements run on
 * @returns the store's view of the connection's queue
 * @example
 * ```ts
 * const serial = connectionQueue(client);
 * const rows = await serial.run(() => client.query('SELECT 1'), cancelled, sendCancel);
 * ```
 */
export function connectionQueue(connection: object): SerialQueue {
  let enqueue = queues.get(connection);
  if (enqueue === undefined) {
    enqueue = connectionTurns();
    queues.set(connection, enqueue);
  }
  const shared = enqueue;
  const pending = new Set<Promise<void>>();
  return {
    run(work, cancelled, cancel) {
      const { result, done } = shared(work, cancelled, cancel);
      pending.add(done);
      void done.then(() => pending.delete(done));
      return result;
    },
    drained: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}

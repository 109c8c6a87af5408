import type { Cancellation } from '@plantstore/core';
import { abortError, NEVER_CANCELLED, raceAbort } from './abortable';

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
  /** Settles once everything queued so far, and every cancel it started, has ended. */
  drained(): Promise<void>;
}

const noop = (): undefined => undefined;

/**
 * A queue for the statements of a single connection: pg deprecates queueing queries on a busy
 * Client, a statement aborted while it waits here is never sent at all, and a cancel sent for a
 * statement under way cannot reach the store's next one.
 *
 * @returns the queue
 */
export function serialQueue(): SerialQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(work, cancelled = NEVER_CANCELLED, cancel) {
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
      tail = turn.then(noop, noop);
      if (cancel !== undefined) tail = tail.then(() => cancelling).then(noop, noop);
      return raceAbort(turn, cancelled);
    },
    drained: async () => {
      let last: Promise<unknown> | undefined;
      while (last !== tail) {
        last = tail;
        await last;
      }
    },
  };
}

import type { Cancellation } from '@plantstore/core';
import { abortError } from '@plantstore/core/store-kit';

const noop = (): void => undefined;

/** The cancellation of work nobody waits on (schema, pruning): it never fires. */
export const NEVER_CANCELLED: Cancellation = Object.freeze({
  aborted: false,
  reason: undefined,
  onAbort: () => noop,
});

/**
 * Settles like `work`, or rejects with the abort reason as soon as `cancelled` fires, whichever
 * comes first. `work` itself goes on; `onLate` receives its value if it arrives after the abort, so
 * that what it holds (a pooled connection) can be given back.
 *
 * @param work - the pending operation
 * @param cancelled - the cancellation to honour
 * @param onLate - called with the value `work` resolves to after the abort
 * @returns the value of `work`
 */
export function raceAbort<T>(
  work: Promise<T>,
  cancelled: Cancellation,
  onLate?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      reject(abortError(cancelled));
    };
    let stopListening = noop;
    if (cancelled.aborted) onAbort();
    else stopListening = cancelled.onAbort(onAbort);
    work.then(
      (value) => {
        stopListening();
        if (aborted) onLate?.(value);
        else resolve(value);
      },
      (error: Error) => {
        stopListening();
        // After an abort the caller has its answer; a late failure has nobody left to tell.
        if (!aborted) reject(error);
      },
    );
  });
}

/** The clean-ups still running after aborts (a cancel, a connection given back). */
export interface Cleanups {
  /** Keeps `cleanup` until it settles. */
  readonly track: (cleanup: Promise<void>) => void;
  /** Settles once every clean-up tracked so far, and any they led to, has settled. */
  readonly idle: () => Promise<void>;
}

/**
 * A set of clean-ups for a runner's `idle()`, which `close()` awaits.
 *
 * @returns an empty set
 * @example
 * ```ts
 * const cleanups = cleanupSet();
 * cleanups.track(cancelAndRelease());
 * await cleanups.idle();
 * ```
 */
export function cleanupSet(): Cleanups {
  const pending = new Set<Promise<void>>();
  return {
    track: (cleanup) => {
      pending.add(cleanup);
      void cleanup.finally(() => pending.delete(cleanup));
    },
    idle: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

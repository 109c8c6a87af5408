import type { Cancellation } from '@plantstore/core';

/** The error an aborted statement rejects with: the time-out's reason when it is an `Error`. */
export function abortError(cancelled: Cancellation): Error {
  const reason: unknown = cancelled.reason;
  return reason instanceof Error
    ? reason
    : new Error('The MySQL statement was aborted.', { cause: reason });
}

const noop = (): void => undefined;

/** The cancellation of statements nobody waits on (schema, pruning): it never fires. */
export const NOT_CANCELLED: Cancellation = Object.freeze({
  aborted: false,
  reason: undefined,
  onAbort: () => noop,
});

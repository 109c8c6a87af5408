import type { Cancellation } from '@plantstore/core';

/** What an aborted statement rejects with: the time-out's reason, or an error carrying it. */
export function abortError({ reason }: Cancellation): Error {
  if (reason instanceof Error) return reason;
  return new Error('The MySQL statement was aborted.', { cause: reason });
}

import type { Cancellation } from '../common/timed-call';

/**
 * What an aborted store call rejects with: the time-out's own error (the service's 503) when the
 * reason is an `Error`, or an `Error` carrying the reason as its `cause`.
 *
 * @param cancelled - the call's cancellation, once it fired
 * @returns the error to reject with
 * @example
 * ```ts
 * const cancelled = cancellation(context);
 * if (cancelled.aborted) throw abortError(cancelled);
 * ```
 */
export function abortError(cancelled: Pick<Cancellation, 'reason'>): Error {
  const reason: unknown = cancelled.reason;
  return reason instanceof Error
    ? reason
    : new Error('The store call was aborted.', { cause: reason });
}

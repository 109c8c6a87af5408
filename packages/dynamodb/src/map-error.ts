import { ServiceUnavailableError } from '@plantstore/core';
import { findCause, isNetworkCode } from '@plantstore/core/store-kit';

// DynamoDB's answers that mean "not now, the same request may work later": throttling (on-demand
// tables throttle too, past their previous peak), a conflict with a transaction holding the item,
// and the service's own failures. A missing table or a validation error is a fault of the setup and
// stays a 500.
const BUSY_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  // A transaction on the plant and its event cancelled for a reason other than the plant's
  // condition (which the store answers itself): a conflict or throttling that outlasted its retries.
  'TransactionCanceledException',
  'InternalServerError',
  'ServiceUnavailable',
]);

// The SDK's time-outs (requestTimeout, connectionTimeout of its HTTP handler).
const TIMEOUT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);

/** Which store failed: each answers 503 with its own code. */
export type StoreKind = 'plants' | 'replay';

/**
 * Turns an AWS SDK failure into the core's `ServiceUnavailableError` (503 with `Retry-After`) when
 * it is transient, keeping it as `cause`; any other failure comes back unchanged (the core answers
 * 500 and `onError` sees it).
 *
 * @param error - what the SDK rejected with
 * @param store - whose code to answer with
 * @returns the error to throw
 */
export function mapDynamoError(error: unknown, store: StoreKind): Error {
  const transient = transientKind(error);
  if (transient === undefined) {
    return error instanceof Error
      ? error
      : new Error('The DynamoDB store failed.', { cause: error });
  }
  if (store === 'replay') {
    const message = 'The DynamoDB replay store is unavailable.';
    return new ServiceUnavailableError('replay_store_unavailable', message, { cause: error });
  }
  return transient === 'timeout'
    ? new ServiceUnavailableError('store_timeout', 'The DynamoDB request timed out.', {
        cause: error,
      })
    : new ServiceUnavailableError('store_unavailable', 'DynamoDB is unavailable.', {
        cause: error,
      });
}

/** `'busy'`, `'timeout'` or nothing, through the kit's walk of `cause`. */
function transientKind(error: unknown): 'busy' | 'timeout' | undefined {
  return findCause(error, (failure): 'busy' | 'timeout' | undefined => {
    const { name, $metadata } = failure;
    if (typeof name === 'string' && BUSY_NAMES.has(name)) return 'busy';
    // Before the name: the SDK names a reset or refused socket a TimeoutError, so that it retries.
    if (isNetworkCode(failure)) return 'busy';
    if (typeof name === 'string' && TIMEOUT_NAMES.has(name)) return 'timeout';
    const status = ($metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    return typeof status === 'number' && status >= 500 ? 'busy' : undefined;
  });
}

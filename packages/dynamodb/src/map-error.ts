import { ServiceUnavailableError } from '@plantstore/core';

// DynamoDB's answers that mean "not now, the same request may work later": throttling (on-demand
// tables throttle too, past their previous peak), a conflict with a transaction holding the item,
// and the service's own failures. A missing table or a validation error is a fault of the setup and
// stays a 500.
const BUSY_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'InternalServerError',
  'ServiceUnavailable',
]);

// The SDK's time-outs (requestTimeout, connectionTimeout of its HTTP handler).
const TIMEOUT_NAMES = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException']);

// Socket failures as Node reports them: nothing answered, or the connection broke.
const NETWORK_CODES = new Set([
  ...['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND'],
  ...['EAI_AGAIN', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH', 'ENETDOWN', 'UND_ERR_SOCKET'],
]);

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

/** `'busy'`, `'timeout'` or nothing, looking through a short chain of causes. */
function transientKind(error: unknown): 'busy' | 'timeout' | undefined {
  let failure = error;
  for (let depth = 0; depth < 8 && typeof failure === 'object' && failure !== null; depth += 1) {
    const { name, code, $metadata, cause } = failure as Record<string, unknown>;
    if (typeof name === 'string' && BUSY_NAMES.has(name)) return 'busy';
    // Before the name: the SDK names a reset or refused socket a TimeoutError, so that it retries.
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return 'busy';
    if (typeof name === 'string' && TIMEOUT_NAMES.has(name)) return 'timeout';
    const status = ($metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
    if (typeof status === 'number' && status >= 500) return 'busy';
    failure = cause;
  }
  return undefined;
}

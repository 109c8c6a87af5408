import { findCause, isNetworkCode } from '../store-kit/transient';

// Drivers' own codes for a lost or refused connection, beside Node's (the kit's NETWORK_CODES):
// postgres.js, then mysql2.
const DRIVER_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_LOCK_DEADLOCK',
]);

// Drivers that say it by the error's class alone: ioredis, node-redis, the MongoDB driver.
const TRANSIENT_CLASSES = new Set([
  'MaxRetriesPerRequestError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
]);

// SQLSTATEs (PostgreSQL and the wire-compatible engines) that say "try again", not "this is wrong":
// class 08 connection exceptions, class 53 insufficient resources, an admin or crash shutdown and
// "cannot connect now" (57P01–57P03), and a serialization failure or deadlock (40001, 40P01).
const RETRYABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '40001', '40P01']);
const RETRYABLE_SQLSTATE_CLASSES = new Set(['08', '53']);

/**
 * Whether a store's failure is one a client should retry (503 with `Retry-After`) rather than a fault
 * of the store (500): a lost or refused connection, or a database that is busy, shutting down or
 * asked the transaction to be retried, as Node, the SQL drivers (`code`, mysql2's `sqlState`), and
 * the Redis and MongoDB drivers (by error class) report it. Looks at the error and what lies below
 * it (`cause`, an `AggregateError`'s `errors`), as drivers and pools wrap the socket's error: the
 * store kit's one list of network codes and one walk (`@plantstore/core/store-kit`).
 *
 * @param error - what the store threw
 * @returns whether the failure is transient
 * @example
 * ```ts
 * isTransientFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })); // true
 * ```
 */
export function isTransientFailure(error: unknown): boolean {
  return findCause(error, (failure) => (isTransientOne(failure) ? true : undefined)) === true;
}

/** Whether one failure of a chain, not its causes, says "try again". */
function isTransientOne(failure: Readonly<Record<string, unknown>>): boolean {
  const { code, sqlState, name } = failure;
  if (isNetworkCode(failure)) return true;
  if (typeof code === 'string' && (DRIVER_CODES.has(code) || isRetryableSqlState(code)))
    return true;
  // mysql2 keeps the SQLSTATE apart from its `code` (`ER_…`).
  if (typeof sqlState === 'string' && isRetryableSqlState(sqlState)) return true;
  const { constructor } = failure as { constructor?: { name?: unknown } };
  return [name, constructor?.name].some(
    (className) => typeof className === 'string' && TRANSIENT_CLASSES.has(className),
  );
}

function isRetryableSqlState(code: string): boolean {
  if (RETRYABLE_SQLSTATES.has(code)) return true;
  return /^[0-9A-Z]{5}$/u.test(code) && RETRYABLE_SQLSTATE_CLASSES.has(code.slice(0, 2));
}

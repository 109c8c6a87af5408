import { ServiceUnavailableError } from '@plantstore/core';
import { findCause, isNetworkCode } from '@plantstore/core/store-kit';

// Server error numbers that say "the database cannot serve you right now; the same request may
// work later". MySQL's and MariaDB's numbers agree below 1900; above, each is marked with its server.
const UNAVAILABLE_ERRNOS = new Set([
  1040, // ER_CON_COUNT_ERROR: too many connections
  1053, // ER_SERVER_SHUTDOWN: the server is shutting down
  1077, // ER_NORMAL_SHUTDOWN
  1079, // ER_SHUTDOWN_COMPLETE
  1152, // ER_ABORTING_CONNECTION
  1184, // ER_NEW_ABORTING_CONNECTION
  1213, // ER_LOCK_DEADLOCK: the other statement won; a retry succeeds
  1290, // ER_OPTION_PREVENTS_STATEMENT: --read-only, as a demoted primary after a fail-over is
  1317, // ER_QUERY_INTERRUPTED: the statement was killed (by an administrator, or a shutdown)
  1836, // ER_READ_ONLY_MODE (MySQL)
  1927, // ER_CONNECTION_KILLED (MariaDB)
  1037, // ER_OUT_OF_MEMORY
  1038, // ER_OUT_OF_SORTMEMORY
  1041, // ER_OUT_OF_RESOURCES
  1021, // ER_DISK_FULL
  1203, // ER_TOO_MANY_USER_CONNECTIONS
  1226, // ER_USER_LIMIT_REACHED
  2002, // CR_CONNECTION_ERROR
  2003, // CR_CONN_HOST_ERROR
  2006, // CR_SERVER_GONE_ERROR
  2013, // CR_SERVER_LOST
  4031, // ER_CLIENT_INTERACTION_TIMEOUT (MySQL 8.0.24+): the server closed an idle connection
]);

// A statement stopped by a server-side time-out.
const TIMEOUT_ERRNOS = new Set([
  1205, // ER_LOCK_WAIT_TIMEOUT: innodb_lock_wait_timeout, or lock_wait_timeout for a table lock
  1969, // ER_STATEMENT_TIMEOUT (MariaDB): max_statement_time
  3024, // ER_QUERY_TIMEOUT (MySQL): MAX_EXECUTION_TIME
]);

// mysql2's codes for a connection that broke or was closed, beside Node's (the kit's NETWORK_CODES).
const UNAVAILABLE_CODES = new Set(['PROTOCOL_CONNECTION_LOST', 'PROTOCOL_SEQUENCE_TIMEOUT']);

// mysql2 reports these without a code; its messages have been stable across releases.
const UNAVAILABLE_MESSAGES = [
  /^No connections available\.$/, // a pool created with waitForConnections: false, all busy
  /^Queue limit reached\.$/, // a pool's queueLimit of waiting callers reached
  /^Pool is closed\.$/,
  /^Can't add new command when connection is in closed state$/,
  /^Connection lost: The server closed the connection\.$/,
];

/** Which store failed: each answers with its own codes. */
export type StoreKind = 'plants' | 'replay';

type Transient = 'unavailable' | 'timeout';

/** The code and message a transient failure of each store answers with (503, `Retry-After`). */
function answerOf(store: StoreKind, kind: Transient): [ServiceUnavailableError['code'], string] {
  if (store === 'replay') {
    // A DPoP proof that cannot be checked for replay is refused for now, whatever stopped the check.
    return ['replay_store_unavailable', 'The MySQL replay store is unavailable.'];
  }
  return kind === 'timeout'
    ? ['store_timeout', 'The MySQL store stopped the statement at its time-out.']
    : ['store_unavailable', 'The MySQL store is unavailable.'];
}

/**
 * Turns a mysql2 failure into the core's "store unavailable" or "store time-out" (both 503, the
 * client may retry) when it is one; any other failure (a syntax error, a missing privilege, a table
 * of the wrong shape) comes back unchanged, and the core answers it 500. The original failure is
 * kept as `cause` for `onError`, never shown to the client.
 *
 * @param error - what mysql2 reported
 * @param store - whose codes to answer with. Default the plant store's
 * @returns a `ServiceUnavailableError`, or `error` itself (wrapped in an `Error` if it is none)
 */
export function mapStoreError(error: unknown, store: StoreKind = 'plants'): Error {
  const kind = transientKind(error);
  if (kind === undefined) {
    return error instanceof Error ? error : new Error('The MySQL store failed.', { cause: error });
  }
  const [code, message] = answerOf(store, kind);
  return new ServiceUnavailableError(code, message, { cause: error });
}

/** Which transient failure `error` is, through the kit's walk of `cause` and `AggregateError`s. */
function transientKind(error: unknown): Transient | undefined {
  return findCause(error, (failure): Transient | undefined => {
    const { errno, code, message } = failure;
    if (typeof errno === 'number' && UNAVAILABLE_ERRNOS.has(errno)) return 'unavailable';
    if (typeof errno === 'number' && TIMEOUT_ERRNOS.has(errno)) return 'timeout';
    if (isNetworkCode(failure)) return 'unavailable';
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return 'unavailable';
    const known = typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
    return known ? 'unavailable' : undefined;
  });
}

/** The server's error number of a mysql2 failure, if it has one. */
export function errnoOf(error: unknown): unknown {
  return (error as { errno?: unknown } | null)?.errno;
}

import { ServiceUnavailableError } from '@plantstore/core';
import { findCause, isNetworkCode } from '@plantstore/core/store-kit';

// The `postgres` client's own codes, beside Node's (the kit's NETWORK_CODES): the connection closed
// under a statement, the client was ended or destroyed, or connecting took longer than its
// connect_timeout.
const DRIVER_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

// SQLSTATEs that say "the database cannot serve you right now; the same request may work later".
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is shutting down, or pg_terminate_backend
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or in recovery
  '25006', // read_only_sql_transaction: connected to a standby, as after a fail-over
  '40001', // serialization_failure: transient; distributed engines ask clients to retry
  '40P01', // deadlock_detected: the other statement won, a retry succeeds
]);
const UNAVAILABLE_CLASSES = [
  '08', // connection_exception
  '53', // insufficient_resources: too_many_connections, disk_full, out_of_memory
];

// SQLSTATEs of a statement stopped by a server-side time-out (statement_timeout, lock_timeout).
const TIMEOUT_SQLSTATES = new Set(['57014', '55P03']);

// pg, pg-pool and PGlite report these without a code; their messages are stable across releases.
const UNAVAILABLE_MESSAGES = [
  /^timeout exceeded when trying to connect$/, // pg-pool: every connection busy past connectionTimeoutMillis
  /^Connection terminated/, // pg: the socket closed, or the connect time-out hit
  /is not queryable$/, // pg: a client whose connection failed or ended
  /^Cannot use a pool after calling end on the pool$/,
  /^PGlite is clos(ed|ing)$/,
];

/** Which store failed: the plant store answers with its own codes, the replay store with its one. */
export type StoreKind = 'plants' | 'replay';

const ANSWERS = {
  plants: {
    unavailable: ['store_unavailable', 'The PostgreSQL store is unavailable.'],
    timeout: ['store_timeout', 'The PostgreSQL store stopped the statement at its time-out.'],
  },
  // A DPoP proof that cannot be checked for replay is refused for now, whatever stopped the check.
  replay: {
    unavailable: ['replay_store_unavailable', 'The PostgreSQL replay store is unavailable.'],
    timeout: [
      'replay_store_unavailable',
      'The PostgreSQL replay store stopped the statement at its time-out.',
    ],
  },
} as const satisfies Record<
  StoreKind,
  Record<'unavailable' | 'timeout', readonly [ServiceUnavailableError['code'], string]>
>;

/**
 * Turns a driver failure into the core's "store unavailable" or "store time-out" (both 503, the
 * client may retry) when it is one; any other failure comes back unchanged, and the core answers
 * it 500. The original failure is kept as `cause` for `onError`, never shown to the client.
 *
 * @param error - what the driver threw
 * @param store - whose codes to answer with: the plant store's (default) or the replay store's
 * @returns a `ServiceUnavailableError`, or `error` itself (wrapped in an `Error` if it is none)
 */
export function mapStoreError(error: unknown, store: StoreKind = 'plants'): Error {
  const kind = findCause(error, classify);
  if (kind !== undefined) {
    const [code, message] = ANSWERS[store][kind];
    return new ServiceUnavailableError(code, message, { cause: error });
  }
  return error instanceof Error
    ? error
    : new Error('The PostgreSQL store failed.', { cause: error });
}

type Kind = 'unavailable' | 'timeout' | undefined;

/** What one failure of a chain says; the kit's walk looks below it (`cause`, an AggregateError). */
function classify(failure: Readonly<Record<string, unknown>>): Kind {
  const { code } = failure;
  if (isLost(failure)) return 'unavailable';
  if (typeof code !== 'string') return undefined;
  if (UNAVAILABLE_SQLSTATES.has(code)) return 'unavailable';
  if (code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return 'unavailable';
  return TIMEOUT_SQLSTATES.has(code) ? 'timeout' : undefined;
}

/** A socket's failure, the `postgres` client's code for one, or pg's words for one. */
function isLost(failure: Readonly<Record<string, unknown>>): boolean {
  const { code, message } = failure;
  return (
    isNetworkCode(failure) ||
    (typeof code === 'string' && DRIVER_CODES.has(code)) ||
    (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((known) => known.test(message)))
  );
}

/**
 * Whether a failure means the connection it happened on is dead (a FATAL or PANIC from the server,
 * or a socket error), so that a pool must discard the connection rather than reuse it. The server
 * reports the FATAL before it closes the socket, and a connection given back in between would go
 * to the next caller.
 *
 * @param error - what the query rejected with
 * @returns whether the connection is lost
 */
export function isConnectionLost(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as Readonly<Record<string, unknown>>;
  return failure['severity'] === 'FATAL' || failure['severity'] === 'PANIC' || isLost(failure);
}

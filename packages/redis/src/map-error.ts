import { isPlantServiceError, ServiceUnavailableError } from '@plantstore/core';

// Replies that say the data is there but not reachable now: a cluster without a master for the slot
// (CLUSTERDOWN), a slot moving (TRYAGAIN, MOVED/ASK past the client's redirections), a replica that
// lost its master (MASTERDOWN), a server loading its data (LOADING), a node just demoted (READONLY),
// a script or failover holding the server (BUSY, UNBLOCKED), memory full (OOM).
const TRANSIENT_REPLY =
  /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|READONLY|BUSY|UNBLOCKED|NOREPLICAS|OOM|MOVED|ASK)\b/;

// node-redis names its reply errors ErrorReply (and subclasses), ioredis ReplyError.
const REPLY_CLASSES = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

/**
 * True when the error is the server's own answer, not a failure to reach it.
 *
 * @param error - what a client rejected with
 * @returns whether Redis sent it (node-redis's `ErrorReply` and subclasses, ioredis's `ReplyError`)
 */
export function isReply(error: Error): boolean {
  for (let proto: unknown = error; proto !== null; proto = Object.getPrototypeOf(proto)) {
    const named = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof named === 'string' && REPLY_CLASSES.has(named)) return true;
    if (proto === Error.prototype) break;
  }
  return error.name === 'ReplyError';
}

// Errors a program makes, not a network: passed through so that they answer 500.
const BUGS = [TypeError, RangeError, ReferenceError, SyntaxError];

/**
 * What a failed call rejects with. A failure to reach Redis (refused, reset, closed, offline queue
 * full or disabled, command time-out, topology unknown) and a transient reply become a 503 the client
 * may retry; any other reply (WRONGTYPE, a script error) and a program error are passed through as
 * they are, for the service to answer 500 with the error as the cause.
 *
 * @param error - what the client rejected with
 * @param code - the 503's code: `store_unavailable` or `replay_store_unavailable`
 * @returns the error to reject with
 */
export function mapRedisError(error: unknown, code: ServiceUnavailableError['code']): unknown {
  if (isPlantServiceError(error)) return error; // the store's own 503, or the time-out's
  if (!(error instanceof Error) || BUGS.some((kind) => error instanceof kind)) return error;
  if (isReply(error) && !TRANSIENT_REPLY.test(error.message)) return error;
  return new ServiceUnavailableError(code, 'Redis is unavailable.', { cause: error });
}

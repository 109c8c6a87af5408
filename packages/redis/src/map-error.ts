import {
  cancellation,
  isPlantServiceError,
  ServiceUnavailableError,
  type Cancellation,
} from '@plantstore/core';

// Replies that say the data is there but not reachable now: a cluster without a master for the slot
// (CLUSTERDOWN), a slot moving (TRYAGAIN, MOVED/ASK past the client's redirections), a replica that
// lost its master (MASTERDOWN), a server loading its data (LOADING), a node just demoted (READONLY),
// a script or failover holding the server (BUSY, UNBLOCKED), memory full (OOM).
const TRANSIENT_REPLY =
  /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|READONLY|BUSY|UNBLOCKED|NOREPLICAS|OOM|MOVED|ASK)\b/;

// node-redis names its reply errors ErrorReply (and subclasses), ioredis ReplyError.
const REPLY_CLASSES = new Set(['ErrorReply', 'SimpleError', 'BlobError', 'ReplyError']);

/** True when the error is the server's own answer, not a failure to reach it. */
function isReply(error: Error): boolean {
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

/**
 * Runs one call of a store: not at all once its time-out has passed (it rejects with the time-out's
 * own error, or the reason the caller's signal was aborted with), and with its failures mapped by
 * {@link mapRedisError}.
 *
 * @param code - the 503's code
 * @param context - the call's context; none for `ready()`
 * @param call - the call, given its cancellation
 * @returns what the call resolves to
 */
export function redisCall<T>(
  code: ServiceUnavailableError['code'],
  context: { readonly signal: AbortSignal } | undefined,
  call: (cancelled: Cancellation | undefined) => Promise<T>,
): Promise<T> {
  const cancelled = context === undefined ? undefined : cancellation(context);
  if (cancelled?.aborted === true) {
    return Promise.reject(
      (cancelled.reason as Error | undefined) ??
        new Error('The Redis call was aborted before it was sent.'),
    );
  }
  return call(cancelled).catch((error: unknown) => {
    throw mapRedisError(error, code);
  });
}

/** How long `ready()` waits for the server's PONG. */
const READY_TIMEOUT_MS = 5_000;

/**
 * The readiness probe of both stores: a PING, answered within 5 s. A client that queues commands
 * while it reconnects (ioredis's offline queue) would otherwise keep the probe waiting for as long
 * as the server is away; the PING itself is harmless wherever it lands.
 *
 * @param ping - sends the PING
 * @param code - the code of the 503 when it is not answered
 * @returns settles once the server answered
 * @example
 * ```ts
 * ready: () => pingWithin(() => runner.ping(), 'store_unavailable'),
 * ```
 */
export function pingWithin(
  ping: () => Promise<unknown>,
  code: ServiceUnavailableError['code'],
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ServiceUnavailableError(
            code,
            `Redis did not answer PING within ${READY_TIMEOUT_MS / 1000} s.`,
          ),
        ),
      READY_TIMEOUT_MS,
    );
  });
  return Promise.race([redisCall(code, undefined, ping), late])
    .then(() => undefined)
    .finally(() => clearTimeout(timer));
}

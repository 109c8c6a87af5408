// Node's network errors (`err.code`): the backend could not be reached or dropped the connection.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs (PostgreSQL and the wire-compatible engines) that say "try again", not "this is wrong":
// class 08 connection exceptions, class 53 insufficient resources, an admin or crash shutdown and
// "cannot connect now" (57P01–57P03), and a serialization failure or deadlock (40001, 40P01).
const RETRYABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '40001', '40P01']);
const RETRYABLE_SQLSTATE_CLASSES = new Set(['08', '53']);

/**
 * Whether a store's failure is one a client should retry (503 with `Retry-After`) rather than a fault
 * of the store (500): a lost or refused connection, or a database that is busy, shutting down or
 * asked the transaction to be retried. Looks at the error and up to three causes below it, as drivers
 * and pools wrap the socket's error.
 *
 * @param error - what the store threw
 * @returns whether the failure is transient
 * @example
 * ```ts
 * isTransientFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })); // true
 * ```
 */
export function isTransientFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const { code } = current as { code?: unknown };
    if (typeof code === 'string') {
      if (NETWORK_CODES.has(code) || RETRYABLE_SQLSTATES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/u.test(code) && RETRYABLE_SQLSTATE_CLASSES.has(code.slice(0, 2))) {
        return true;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

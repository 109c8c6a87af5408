import { ServiceUnavailableError } from '@plantstore/core';

// What D1 says when the database could not answer now and a retry may succeed (Cloudflare's D1
// documentation, "Error list": the network, a reset or overloaded object, a time-out).
const RETRYABLE =
  /network connection lost|storage caused object to be reset|overloaded|internal error|timed? ?out|reset because its code was updated|cannot resolve d1 db/iu;

/**
 * A D1 error as the core answers it: 503 `store_unavailable` (with `Retry-After`) when D1 could not
 * answer now, the error as it is (500) for anything else, such as a missing table.
 *
 * @param error - what the D1 call rejected with
 * @returns the error to throw
 * @example
 * ```ts
 * await db.batch(statements).catch((error: unknown) => { throw mapD1Error(error); });
 * ```
 */
export function mapD1Error(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (!RETRYABLE.test(message)) return error;
  return new ServiceUnavailableError('store_unavailable', 'The D1 database did not answer.', {
    cause: error,
  });
}

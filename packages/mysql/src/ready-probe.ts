import { type Cancellation, cancellation, ServiceUnavailableError } from '@plantstore/core';

/** How long a readiness probe waits for the server's answer. */
const READY_TIMEOUT_MS = 5_000;

/**
 * Runs a store's readiness statement, bounded like a request's statement and killed the same way: a
 * probe that hung on a silent connection would hold that connection, and the probe, for as long as
 * the kernel keeps the socket.
 *
 * @param runner - the store's runner
 * @param sql - the statement
 * @param code - the code of the 503 when the server does not answer in time
 * @returns the statement's result
 * @throws ServiceUnavailableError `code` when no answer came within 5 s; the statement's own
 *   failure otherwise
 */
export function readyProbe(
  runner: { run(sql: string, cancelled?: Cancellation): Promise<unknown> },
  sql: string,
  code: ServiceUnavailableError['code'],
): Promise<unknown> {
  const cancelled = cancellation({ signal: AbortSignal.timeout(READY_TIMEOUT_MS) });
  return runner.run(sql, cancelled).catch((error: unknown) => {
    if (!cancelled.aborted) throw error;
    throw new ServiceUnavailableError(
      code,
      `The MySQL server did not answer within ${READY_TIMEOUT_MS / 1000} s.`,
    );
  });
}

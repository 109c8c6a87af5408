import { cancellation, ServiceUnavailableError } from '@plantstore/core';
import type { ClientKind } from './clients';
import type { SqlRunner } from './runner';

/** How long a readiness probe waits for the database's answer, on node-postgres. */
const READY_TIMEOUT_MS = 5_000;

/**
 * Runs a store's readiness statement. On node-postgres it is bounded like a request's statement,
 * and cancelled the same way: a probe that hung on a silent connection would hold that connection,
 * and the probe, for as long as the kernel keeps the socket. PGlite is in the process, and its
 * first start (initdb) may take longer than any bound; the postgres client has time-outs of its own
 * (`connect_timeout`, `idle_timeout`).
 *
 * @param runner - the store's runner
 * @param kind - the kind of client it runs on
 * @param sql - the statement
 * @param code - the code of the 503 when the database does not answer in time
 * @returns settles once the statement has run
 * @throws ServiceUnavailableError `code` when node-postgres got no answer within 5 s; the
 *   statement's own failure otherwise
 */
export async function readyProbe(
  runner: SqlRunner,
  kind: ClientKind['kind'],
  sql: string,
  code: ServiceUnavailableError['code'],
): Promise<void> {
  if (kind !== 'pool' && kind !== 'client') {
    await runner.exec(sql);
    return;
  }
  const cancelled = cancellation({ signal: AbortSignal.timeout(READY_TIMEOUT_MS) });
  await runner.read(sql, [], cancelled).catch((error: unknown) => {
    if (!cancelled.aborted) throw error;
    throw new ServiceUnavailableError(
      code,
      `PostgreSQL did not answer within ${READY_TIMEOUT_MS / 1000} s.`,
    );
  });
}

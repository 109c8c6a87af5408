import type { Cancellation } from '@plantstore/core';
import type { ClientKind } from './clients';
import type { SqlRunner } from './runner';

/**
 * A store's readiness statement, for the kit's bounded `ready()`: on node-postgres it is cancelled
 * like a request's statement when the bound passes (a probe hung on a silent connection would hold
 * that connection for as long as the kernel keeps the socket); the `postgres` client has time-outs
 * of its own (`connect_timeout`, `idle_timeout`), and PGlite runs it once it is up.
 *
 * @param runner - the store's runner
 * @param kind - the kind of client it runs on
 * @param sql - the statement
 * @returns the probe, given the bound's cancellation
 */
export function readyProbe(
  runner: SqlRunner,
  kind: ClientKind['kind'],
  sql: string,
): (cancelled: Cancellation) => Promise<unknown> {
  return kind === 'pool' || kind === 'client'
    ? (cancelled) => runner.read(sql, [], cancelled)
    : () => runner.exec(sql);
}

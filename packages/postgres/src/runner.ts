import type { Cancellation } from '@plantstore/core';
import { cleanupSet } from './abortable';

/** Runs statements on whichever client the store was given. */
export interface SqlRunner {
  /** Runs one reading statement; rejects at once when `cancelled` fires. */
  read(
    text: string,
    values: readonly unknown[],
    cancelled: Cancellation,
  ): Promise<readonly unknown[]>;
  /**
   * Runs one writing statement (on PGlite, one with an `int8` or `text` parameter); rejects at once
   * when `cancelled` fires, and then writes nothing unless the statement had already finished (PGlite:
   * not executed when its turn comes; a server: cancelled).
   */
  write(
    text: string,
    values: readonly unknown[],
    cancelled: Cancellation,
  ): Promise<readonly unknown[]>;
  /** Runs one statement that no request is waiting on (schema, readiness). */
  exec(text: string): Promise<void>;
  /** Settles once the clean-ups still running after an abort (a cancel, a release) are done. */
  idle(): Promise<void>;
}

/** Runs one statement on a connection it checks out of a pool, tracking what an abort leaves. */
export type PooledStatement = (
  text: string,
  values: readonly unknown[],
  cancelled: Cancellation,
  track: (cleanup: Promise<void>) => void,
) => Promise<readonly unknown[]>;

/**
 * The runner of a pool-like client (a pg Pool, the `postgres` client): each statement checks out a
 * connection of its own, reads and writes alike, and `idle()` waits for the clean-ups of aborts.
 *
 * @param statement - runs one statement
 * @param exec - runs a schema or readiness statement
 * @returns the runner
 * @example
 * ```ts
 * const runner = pooledRunner(
 *   (text, values, cancelled, track) => runOnPool(pool, text, values, cancelled, track),
 *   async (text) => void (await pool.query(text)),
 * );
 * ```
 */
export function pooledRunner(
  statement: PooledStatement,
  exec: (text: string) => Promise<void>,
): SqlRunner {
  const cleanups = cleanupSet();
  const run = (text: string, values: readonly unknown[], cancelled: Cancellation) =>
    statement(text, values, cancelled, cleanups.track);
  return { read: run, write: run, exec, idle: cleanups.idle };
}

import type { Cancellation } from '@plantstore/core';
import { abortError, NOT_CANCELLED } from './abort-error';
import type { ClientKind, MysqlPoolLike } from './clients';
import { connectionLane } from './connection-lane';
import { killableQuery } from './killable-query';

/** Runs the stores' statements on whichever client they were given. */
export interface StatementRunner {
  /**
   * Runs one statement; rejects at once when `cancelled` fires, and then the statement is never
   * sent, or is killed on the server (an insert killed commits nothing).
   */
  run(sql: string, cancelled?: Cancellation): Promise<unknown>;
  /** Settles once the clean-ups still running after an abort (a kill, a release) are done. */
  idle(): Promise<void>;
}

/**
 * Makes the runner for a client. A **Pool** lends a connection for each statement; a statement whose
 * time-out fires while it waits for one rejects at once, and the connection, when it comes, goes
 * straight back. A single **connection** runs the statements of every store given it one at a time.
 * Either way a running statement that times out is killed on the server (see `killableQuery`).
 *
 * @param target - the client and its kind
 * @returns the runner
 */
export function statementRunner(target: ClientKind): StatementRunner {
  if (target.kind === 'connection') {
    const lane = connectionLane(target.connection);
    return {
      run: (sql, cancelled = NOT_CANCELLED) => lane.run(sql, cancelled),
      idle: () => lane.drained(),
    };
  }
  const cleanups = new Set<Promise<void>>();
  const track = (cleanup: Promise<void>): void => {
    cleanups.add(cleanup);
    void cleanup.finally(() => cleanups.delete(cleanup));
  };
  return {
    run: (sql, cancelled = NOT_CANCELLED) => runOnPool(target.pool, sql, cancelled, track),
    idle: async () => {
      while (cleanups.size > 0) await Promise.allSettled([...cleanups]);
    },
  };
}

function runOnPool(
  pool: MysqlPoolLike,
  sql: string,
  cancelled: Cancellation,
  track: (cleanup: Promise<void>) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (cancelled.aborted) {
      reject(abortError(cancelled));
      return;
    }
    // mysql2 cannot take back a wait for a connection: one that comes after the time-out goes back.
    let waiting = true;
    const stopWaiting = cancelled.onAbort(() => {
      if (waiting) reject(abortError(cancelled));
    });
    pool.getConnection((error, connection) => {
      waiting = false;
      stopWaiting();
      if (error) {
        reject(error);
        return;
      }
      const release = (clean: boolean): void => {
        if (clean) connection.release();
        else connection.destroy();
      };
      killableQuery(connection, sql, cancelled, release, track).then(resolve, reject);
    });
  });
}

import type { Cancellation } from '@plantstore/core';
import { abortError } from '@plantstore/core/store-kit';
import type { ClientKind, MysqlPoolConnectionLike, MysqlPoolLike } from './clients';
import { connectionLane } from './connection-lane';
import { killableQuery } from './killable-query';
import { inTransaction, type RunStatement } from './transaction';

/** Runs the stores' statements on whichever client they were given. */
export interface StatementRunner {
  /**
   * Runs one statement; rejects at once when `cancelled` fires, and then the statement is never
   * sent, or is killed on the server (an insert killed commits nothing).
   */
  run(sql: string, cancelled?: Cancellation): Promise<unknown>;
  /**
   * Runs `body`'s statements in one transaction on one connection (see `inTransaction`): rejects at
   * once when `cancelled` fires, and then rolls back.
   */
  transaction<T>(body: (run: RunStatement) => Promise<T>, cancelled?: Cancellation): Promise<T>;
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
      run: (sql, cancelled) => lane.run(sql, cancelled),
      transaction: <T>(body: (run: RunStatement) => Promise<T>, cancelled?: Cancellation) =>
        lane.use(cancelled, (connection, release) =>
          inTransaction({ connection, cancelled, release, track: noop }, body),
        ) as Promise<T>,
      idle: () => lane.drained(),
    };
  }
  const cleanups = new Set<Promise<void>>();
  const track = (cleanup: Promise<void>): void => {
    cleanups.add(cleanup);
    void cleanup.finally(() => cleanups.delete(cleanup));
  };
  const { pool } = target;
  return {
    run: (sql, cancelled) =>
      onLentConnection(pool, cancelled, (connection, release) =>
        killableQuery({ connection, sql, cancelled, release, track }),
      ),
    transaction: <T>(body: (run: RunStatement) => Promise<T>, cancelled?: Cancellation) =>
      onLentConnection(pool, cancelled, (connection, release) =>
        inTransaction({ connection, cancelled, release, track }, body),
      ) as Promise<T>,
    idle: async () => {
      while (cleanups.size > 0) await Promise.allSettled([...cleanups]);
    },
  };
}

const noop = (): void => undefined;

// mysql2 cannot take back a wait for a connection: one that comes after the time-out goes back.
function onLentConnection(
  pool: MysqlPoolLike,
  cancelled: Cancellation | undefined,
  use: (connection: MysqlPoolConnectionLike, release: (clean: boolean) => void) => Promise<unknown>,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (cancelled?.aborted === true) {
      reject(abortError(cancelled));
      return;
    }
    let waiting = true;
    const stopWaiting = cancelled?.onAbort(() => {
      if (waiting) reject(abortError(cancelled));
    });
    pool.getConnection((error, connection) => {
      waiting = false;
      stopWaiting?.();
      if (error) {
        reject(error);
        return;
      }
      const release = (clean: boolean): void =>
        clean ? connection.release() : connection.destroy();
      use(connection, release).then(resolve, reject);
    });
  });
}

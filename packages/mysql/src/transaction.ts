import type { Cancellation } from '@plantstore/core';
import { boundedWait } from '@plantstore/core/store-kit';
import type { MysqlConnectionLike } from './clients';
import { killableQuery, statement } from './killable-query';

/** Runs one statement of a transaction, killable as every statement of the stores is. */
export type RunStatement = (sql: string) => Promise<unknown>;

/** A transaction to run on a connection that is the caller's alone until `release` is called. */
export interface TransactionCall {
  readonly connection: MysqlConnectionLike;
  /** The store call's time-out. */
  readonly cancelled: Cancellation | undefined;
  /** Receives the connection back, once, after a commit or a roll-back: `clean` is false when it may be spoilt. */
  readonly release: (clean: boolean) => void;
  /** Receives the clean-up of a failed or aborted transaction, for `close()` to wait on. */
  readonly track: (cleanup: Promise<void>) => void;
}

/**
 * Runs `body`'s statements between `START TRANSACTION` and `COMMIT` on one connection, each under
 * the kill machinery of `killableQuery`. When a statement fails or the time-out fires, it rejects
 * at once and, once the statement has ended (killed, if it was running), the transaction is rolled
 * back before the connection is released; a connection that cannot roll back within the kit's bound
 * is destroyed, which rolls it back on the server. Nothing of an aborted transaction commits later,
 * unless the time-out fired while the `COMMIT` itself was on its way.
 *
 * @param call - the connection, the time-out and what to do after
 * @param body - runs the statements through the given function
 * @returns what `body` resolves, once committed
 */
export async function inTransaction<T>(
  call: TransactionCall,
  body: (run: RunStatement) => Promise<T>,
): Promise<T> {
  const { connection, cancelled, track } = call;
  // Settles, with whether the connection is clean, when the last statement has let go of it.
  let letGo: Promise<boolean> = Promise.resolve(true);
  const run: RunStatement = (sql) => {
    let settle: (clean: boolean) => void = () => undefined;
    letGo = new Promise((resolve) => {
      settle = resolve;
    });
    return killableQuery({ connection, sql, cancelled, release: settle, track });
  };
  try {
    await run('START TRANSACTION');
    const value = await body(run);
    await run('COMMIT');
    call.release(true);
    return value;
  } catch (error) {
    track(letGo.then((clean) => (clean ? rollBack(connection) : false)).then(call.release));
    throw error;
  }
}

function rollBack(connection: MysqlConnectionLike): Promise<boolean> {
  const ended = new Promise<Error | null>((settle) =>
    connection.query(statement('ROLLBACK'), (failure) => settle(failure)),
  );
  return boundedWait(ended).then((failure) => failure === null);
}

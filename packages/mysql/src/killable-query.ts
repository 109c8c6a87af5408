import type { Cancellation } from '@plantstore/core';
import { abortError, boundedWait, TIMED_OUT } from '@plantstore/core/store-kit';
import type { MysqlConnectionLike, QueryOptions } from './clients';
import { killStatement } from './kill-statement';
import { deadlineSql, serverKindOf } from './server-deadline';
import { markedSql, newMark } from './statement-mark';

// A user's `typeCast` function set on the pool would see our columns first; this one hands every
// column to mysql2's own decoding, so ids arrive as text and names as bytes whatever the settings.
const ownDecoding = (_field: unknown, next: () => unknown): unknown => next();

/** The statement with the options every statement of the stores runs with. */
export function statement(sql: string): QueryOptions {
  return { sql, rowsAsArray: true, nestTables: false, typeCast: ownDecoding };
}

/** One statement to run on a connection the caller lent it. */
export interface KillableQuery {
  readonly connection: MysqlConnectionLike;
  readonly sql: string;
  /** The store call's time-out; none for statements nobody waits on (schema, pruning). */
  readonly cancelled: Cancellation | undefined;
  /** Receives the connection back, once: `clean` is false when it may be spoilt. */
  readonly release: (clean: boolean) => void;
  /** Receives the clean-up of an aborted statement, for `close()` to wait on. */
  readonly track: (cleanup: Promise<void>) => void;
}

/**
 * Runs one statement on a connection that is the caller's alone until `release` is called. It
 * settles with the statement, or rejects at once when `cancelled` fires. The statement carries
 * what is left of the time-out to the server, which ends it by itself (`deadlineSql`), and a mark.
 * An aborted statement is also ended with `KILL QUERY`, retried while it runs and sent only where
 * the mark shows it runs (`killStatement`), and the connection released only once the statement
 * has ended and the kill was answered, after a `DO 0` that takes up a kill that arrived after the
 * statement had finished (MySQL can keep it for the connection's next statement): the kill
 * reaches nothing but this statement.
 *
 * @param query - the statement, its connection and what to do after
 * @returns the statement's result: rows, or a result header
 */
export function killableQuery(query: KillableQuery): Promise<unknown> {
  const { connection, cancelled, release } = query;
  const mark = newMark();
  const sql = markedSql(deadlineSql(query.sql, serverKindOf(connection), cancelled), mark);
  return new Promise((resolve, reject) => {
    if (cancelled?.aborted === true) {
      release(true);
      reject(abortError(cancelled));
      return;
    }
    let ended: ((failure: Error | null) => void) | undefined;
    const stopListening = cancelled?.onAbort(() => {
      reject(abortError(cancelled));
      const statementEnded = new Promise<Error | null>((settle) => {
        ended = settle;
      });
      const until = boundedWait(statementEnded);
      query.track(
        Promise.all([
          until,
          killStatement({ target: connection, mark, until, watching: true }),
        ]).then(([failure, confirmed]) =>
          failure === TIMED_OUT
            ? release(false)
            : afterKill(connection, release, confirmed && !isFatal(failure)),
        ),
      );
    });
    connection.query(statement(sql), (failure, result) => {
      if (ended !== undefined) {
        ended(failure);
        return;
      }
      stopListening?.();
      if (failure !== null && isFatal(failure)) {
        release(false);
        // A lost connection does not stop its statement: one waiting on a lock would commit after
        // this request was answered 503. It is killed first, from a connection of its own.
        const until = boundedWait(new Promise<never>(() => undefined));
        void killStatement({ target: connection, mark, until, watching: false }).then(() =>
          reject(failure),
        );
        return;
      }
      release(true);
      if (failure) reject(failure);
      else resolve(result);
    });
  });
}

function afterKill(
  connection: MysqlConnectionLike,
  release: (clean: boolean) => void,
  clean: boolean,
): Promise<void> {
  if (!clean) {
    release(false);
    return Promise.resolve();
  }
  return boundedWait(
    new Promise<Error | null>((settle) => connection.query(statement('DO 0'), settle)),
  ).then((failure) => release(failure !== TIMED_OUT && !isFatal(failure)));
}

// A connection gone silent (a fail-over, a partition) never ends its statement: it would hold its
// place in the pool, and `close()`, for as long as the kernel keeps the socket (about 15 minutes).
// As long as a kill may take (the kit's bounded wait), then it is destroyed instead of released.

/** Whether a failure left the connection unusable (mysql2 marks those `fatal`). */
function isFatal(failure: unknown): boolean {
  return (failure as { fatal?: unknown } | null)?.fatal === true;
}

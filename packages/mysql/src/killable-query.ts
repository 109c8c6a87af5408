import type { Cancellation } from '@plantstore/core';
import { abortError } from './abort-error';
import type { MysqlConnectionLike, QueryOptions } from './clients';
import { killQuery } from './kill-query';

// A user's `typeCast` function set on the pool would see our columns first; this one hands every
// column to mysql2's own decoding, so ids arrive as text and names as bytes whatever the settings.
const ownDecoding = (_field: unknown, next: () => unknown): unknown => next();

/** The statement with the options every statement of the stores runs with. */
export function statement(sql: string): QueryOptions {
  return { sql, rowsAsArray: true, nestTables: false, typeCast: ownDecoding };
}

/** What to do with the connection once the statement is over: `clean` is false when it may be spoilt. */
export type Release = (clean: boolean) => void;

/**
 * Runs one statement on a connection that is the caller's alone until `release` is called. It
 * settles with the statement, or rejects at once when `cancelled` fires. An aborted statement is
 * ended on the server with `KILL QUERY`, and the connection released only once the statement has
 * ended and the kill was answered, after a `DO 0` that takes up a kill that arrived after the
 * statement had finished (MySQL can keep it for the connection's next statement): the kill
 * reaches nothing but this statement.
 *
 * @param connection - the connection
 * @param sql - the statement's text
 * @param cancelled - the store call's time-out
 * @param release - receives the connection back, once
 * @param track - receives the clean-up of an aborted statement, for `close()` to wait on
 * @returns the statement's result: rows, or a result header
 */
export function killableQuery(
  connection: MysqlConnectionLike,
  sql: string,
  cancelled: Cancellation,
  release: Release,
  track: (cleanup: Promise<void>) => void,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    if (cancelled.aborted) {
      release(true);
      reject(abortError(cancelled));
      return;
    }
    let ended: ((failure: Error | null) => void) | undefined;
    const stopListening = cancelled.onAbort(() => {
      reject(abortError(cancelled));
      const statementEnded = new Promise<Error | null>((settle) => {
        ended = settle;
      });
      track(
        Promise.all([statementEnded, killQuery(connection)]).then(([failure, confirmed]) =>
          afterKill(connection, release, confirmed && !isFatal(failure)),
        ),
      );
    });
    connection.query(statement(sql), (failure, result) => {
      if (ended !== undefined) {
        ended(failure);
        return;
      }
      stopListening();
      release(!isFatal(failure));
      if (failure) reject(failure);
      else resolve(result);
    });
  });
}

function afterKill(
  connection: MysqlConnectionLike,
  release: Release,
  clean: boolean,
): Promise<void> {
  if (!clean) {
    release(false);
    return Promise.resolve();
  }
  return new Promise((done) => {
    connection.query(statement('DO 0'), (failure) => {
      release(!isFatal(failure));
      done();
    });
  });
}

/** Whether a failure left the connection unusable (mysql2 marks those `fatal`). */
export function isFatal(failure: unknown): boolean {
  return (
    typeof failure === 'object' &&
    failure !== null &&
    (failure as { fatal?: unknown }).fatal === true
  );
}

import type { Cancellation } from '@plantstore/core';
import { abortError, boundedWait, TIMED_OUT } from '@plantstore/core/store-kit';
import { backendKeyOf, sendCancelRequest, type CancelOutcome } from './cancel-request';
import type { PgPoolLike, SqlResult } from './clients';
import { isConnectionLost } from './map-error';

/**
 * Runs one statement on a connection checked out of the pool for it. On abort it rejects at once and
 * cancels the statement with a CancelRequest on a socket of its own (a busy pool has no connection
 * to spare for it, and needs none), and gives the connection back only once the statement has ended
 * and the server has taken the cancel: a cancel can then reach nothing but this statement, never a
 * statement of the connection's next user. When that cannot be told (the cancel was sent but not
 * seen through), the connection is discarded instead of given back.
 *
 * @param pool - the pool
 * @param text - the statement
 * @param values - its parameters
 * @param cancelled - the store call's time-out
 * @param track - receives the clean-up of an aborted statement, for `close()` to wait on
 * @returns the rows
 */
export function runOnPool(
  pool: PgPoolLike,
  text: string,
  values: readonly unknown[],
  cancelled: Cancellation,
  track: (cleanup: Promise<void>) => void,
): Promise<readonly unknown[]> {
  // One promise per statement, one listener on the time-out for its whole life (a waiting statement
  // rejects at once too: pg-pool cannot stop the wait, so a connection that comes late goes back).
  return new Promise((resolve, reject) => {
    if (cancelled.aborted) {
      reject(abortError(cancelled));
      return;
    }
    let aborted = false;
    // While the statement runs, what the time-out must do to it; until then, nothing.
    let cancelRunning: (() => void) | undefined;
    const stopListening = cancelled.onAbort(() => {
      aborted = true;
      reject(abortError(cancelled));
      cancelRunning?.();
    });
    pool.connect((error, client) => {
      if (error || client === undefined) {
        stopListening();
        reject(error ?? new Error('the pool handed out no connection'));
        return;
      }
      // Attached in the turn pg-pool hands the connection out: a FATAL the server sent (an
      // administrator killed the backend) can be emitted within microtasks of the hand-out, and an
      // unhandled 'error' would end the host process.
      let broken: Error | undefined;
      const onError = (lost: Error): void => {
        broken = lost;
      };
      client.on('error', onError);
      const giveBack = (failure?: Error): void => {
        client.removeListener('error', onError);
        client.release(broken ?? failure);
      };
      if (aborted) {
        giveBack();
        return;
      }
      let ended: ((failure: unknown) => void) | undefined;
      cancelRunning = () => {
        const key = backendKeyOf(client);
        const cancel =
          key === undefined ? Promise.resolve<CancelOutcome>('not-sent') : sendCancelRequest(key);
        const statementEnded = new Promise<unknown>((settle) => {
          ended = settle;
        });
        track(
          Promise.all([boundedWait(statementEnded), cancel]).then(([failure, outcome]) => {
            if (failure === TIMED_OUT) giveBack(STATEMENT_SILENT);
            else if (outcome === 'unknown') giveBack(CANCEL_UNCONFIRMED);
            else giveBack(isConnectionLost(failure) ? (failure as Error) : undefined);
          }),
        );
      };
      client.query(text, values as unknown[], (failure, result) => {
        if (aborted) {
          ended?.(failure ?? undefined);
          return;
        }
        stopListening();
        if (failure && isConnectionLost(failure)) {
          giveBack(failure);
          // A lost socket does not stop its statement: one waiting on a lock would commit after
          // this request was answered 503. It is cancelled first, on a socket of its own.
          const key = backendKeyOf(client);
          const cancelled = key === undefined ? Promise.resolve() : sendCancelRequest(key);
          void cancelled.then(() => reject(failure));
        } else if (failure) {
          giveBack();
          reject(failure);
        } else {
          giveBack();
          resolve((result as SqlResult).rows);
        }
      });
    });
  });
}

// Given to `release()`, so the pool ends the connection: a cancel still on its way then finds no
// statement of anyone else's to stop.
const CANCEL_UNCONFIRMED = new Error('postgresStore: a cancel request was sent but not confirmed');

// A connection gone silent (a fail-over, a partition) never ends its statement: it would hold its
// place in the pool, and `close()`, for as long as the kernel keeps the socket (about 15 minutes).
// As long as a cancel may take (the kit's STORE_TIMEOUT_MS), then it is ended instead of given back.
const STATEMENT_SILENT = new Error('postgresStore: a cancelled statement did not end in 5 s');

import { abortError, raceSignal } from './abortable';
import { backendKeyOf, sendCancelRequest, type CancelOutcome } from './cancel-request';
import type { PgPoolClientLike, PgPoolLike } from './clients';
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
 * @param signal - the signal to honour
 * @param track - receives the clean-up of an aborted statement, for `close()` to wait on
 * @returns the rows
 */
export async function runOnPool(
  pool: PgPoolLike,
  text: string,
  values: readonly unknown[],
  signal: AbortSignal,
  track: (cleanup: Promise<void>) => void,
): Promise<readonly unknown[]> {
  // Waiting for a free connection is not cancellable in pg-pool: on abort, stop waiting and hand
  // the connection straight back when it comes.
  const checkedOut = await raceSignal(checkout(pool), signal, (late) => late.giveBack());
  if (signal.aborted) {
    checkedOut.giveBack();
    throw abortError(signal);
  }
  const { client } = checkedOut;
  const giveBack = (failure?: unknown): void => {
    checkedOut.giveBack(isConnectionLost(failure) ? (failure as Error) : undefined);
  };
  const query = client.query(text, [...values]);

  return new Promise((resolve, reject) => {
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      reject(abortError(signal));
      const key = backendKeyOf(client);
      const cancel =
        key === undefined ? Promise.resolve<CancelOutcome>('not-sent') : sendCancelRequest(key);
      track(
        Promise.all([query.then(noFailure, (failure: unknown) => failure), cancel]).then(
          ([failure, outcome]) => {
            if (outcome === 'unknown') checkedOut.giveBack(CANCEL_UNCONFIRMED);
            else giveBack(failure);
          },
        ),
      );
    };
    signal.addEventListener('abort', onAbort, { once: true });
    query.then(
      (result) => {
        if (aborted) return;
        signal.removeEventListener('abort', onAbort);
        giveBack();
        resolve(result.rows);
      },
      (error: Error) => {
        if (aborted) return;
        signal.removeEventListener('abort', onAbort);
        giveBack(error);
        reject(error);
      },
    );
  });
}

// Given to `release()`, so the pool ends the connection: a cancel still on its way then finds no
// statement of anyone else's to stop.
const CANCEL_UNCONFIRMED = new Error('postgresStore: a cancel request was sent but not confirmed');

const noFailure = (): undefined => undefined;

/** A pooled connection with our `error` listener on it, and how to hand it back. */
interface CheckedOut {
  readonly client: PgPoolClientLike;
  /** Releases the connection, discarding it when it broke (or `failure` says it must go). */
  giveBack(failure?: Error): void;
}

/**
 * Takes a connection from the pool with our `error` listener attached at once. A checked-out client
 * has no pool listener, and a FATAL the server sent (an administrator killed the backend) can be
 * emitted within microtasks of the hand-out: attached after an `await`, the listener would be late,
 * and the unhandled 'error' would end the host process.
 */
function checkout(pool: PgPoolLike): Promise<CheckedOut> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error || client === undefined) {
        reject(error ?? new Error('the pool handed out no connection'));
        return;
      }
      let broken: Error | undefined;
      const onError = (lost: Error): void => {
        broken = lost;
      };
      client.on('error', onError);
      resolve({
        client,
        giveBack(failure) {
          client.removeListener('error', onError);
          client.release(broken ?? failure);
        },
      });
    });
  });
}

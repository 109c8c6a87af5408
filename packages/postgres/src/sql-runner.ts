import { abortError, raceSignal } from './abortable';
import type { ClientKind, PgPoolClientLike, PgPoolLike, SqlResult } from './clients';
import { isConnectionLost } from './map-error';

/** Runs statements on whichever client the store was given. */
export interface SqlRunner {
  /** Runs one parameterised statement; rejects at once when `signal` fires. */
  run(text: string, values: readonly unknown[], signal: AbortSignal): Promise<readonly unknown[]>;
  /** Runs one statement that no request is waiting on (schema, readiness). */
  exec(text: string): Promise<void>;
  /** Settles once the clean-ups still running after an abort (a cancel, a release) are done. */
  idle(): Promise<void>;
}

// Cancels the statement only if that backend is still running exactly it: a stale pid, or one that
// a connection pooler (PgBouncer) made up, then matches nothing instead of someone else's query.
const CANCEL_SQL =
  'SELECT pg_cancel_backend(pid) FROM pg_stat_activity ' +
  "WHERE pid = $1 AND state = 'active' AND query = $2";

/**
 * Makes the runner for a client. PGlite and a single pg Client run the store's statements one at a
 * time: an abort rejects at once, a statement still waiting its turn is then never sent, and one
 * already sent (neither can stop it) completes or fails on its own, atomically. A pg
 * Pool checks a connection out for the statement and, on abort, cancels the statement on the server
 * through another pooled connection (`pg_cancel_backend`), then gives the connection back once the
 * statement has ended.
 *
 * @param target - the client and its kind
 * @returns the runner
 */
export function sqlRunner(target: ClientKind): SqlRunner {
  const cleanups = new Set<Promise<void>>();
  const track = (cleanup: Promise<void>): void => {
    cleanups.add(cleanup);
    void cleanup.finally(() => cleanups.delete(cleanup));
  };
  const idle = async (): Promise<void> => {
    while (cleanups.size > 0) await Promise.allSettled([...cleanups]);
  };

  if (target.kind === 'pool') {
    const pool = target.client;
    return {
      run: (text, values, signal) => runOnPool(pool, text, values, signal, track),
      exec: async (text) => {
        await pool.query(text);
      },
      idle,
    };
  }
  // PGlite and a single pg Client: one statement at a time; PGlite may still be starting.
  const { client } = target;
  const serial = serialQueue();
  return {
    run: (text, values, signal) => serial.run(() => client.query(text, [...values]), signal),
    exec: async (text) => {
      if (target.kind === 'pglite') await target.client.waitReady;
      await serial.run(() => client.query(text));
    },
    idle,
  };
}

/**
 * Runs the statements of a single connection one after another: pg deprecates queueing queries on
 * a busy Client, and a statement aborted while it waits here is never sent at all.
 */
function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run(
      query: () => Promise<SqlResult>,
      signal: AbortSignal = new AbortController().signal,
    ): Promise<readonly unknown[]> {
      const turn = tail.then(() => {
        signal.throwIfAborted();
        return query();
      });
      tail = turn.catch(() => undefined);
      return raceSignal(turn, signal).then((result) => result.rows);
    },
  };
}

async function runOnPool(
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
      // Keep the connection until the statement has ended, so the cancel cannot reach a statement
      // of the connection's next user.
      const cancel = cancelStatement(pool, client, text);
      track(
        Promise.allSettled([query, cancel]).then(([outcome]) =>
          giveBack(outcome.status === 'rejected' ? outcome.reason : undefined),
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

/** A pooled connection with our `error` listener on it, and how to hand it back. */
interface CheckedOut {
  readonly client: PgPoolClientLike;
  /** Releases the connection, discarding it when it broke (or `failure` says it was lost). */
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

async function cancelStatement(
  pool: PgPoolLike,
  client: PgPoolClientLike,
  text: string,
): Promise<void> {
  if (typeof client.processID !== 'number') return;
  try {
    await pool.query(CANCEL_SQL, [client.processID, text]);
  } catch {
    // Best effort: engines without pg_cancel_backend, or a pool that is down. The statement is
    // atomic either way, and a statement_timeout bounds it.
  }
}

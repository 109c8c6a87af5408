import type { Cancellation } from '@plantstore/core';
import { abortError, boundedWait } from '@plantstore/core/store-kit';
import { raceAbort } from './abortable';
import type {
  PostgresJsConnectionLike,
  PostgresJsPendingLike,
  PostgresJsReservedLike,
  PostgresJsSqlLike,
} from './clients';
import { connectionQueue } from './serial-queue';
import { pooledRunner, type PooledStatement, type SqlRunner } from './runner';

/**
 * The runner for porsager's `postgres` client, which cancels a running statement with a
 * CancelRequest of its own (`query.cancel()`) but, left to itself, moves on to the connection's next
 * statement (or one pipelined behind it) without waiting for that cancel to land: a late cancel
 * could then stop someone else's statement. So the store never lets it:
 *
 * - On the client itself (`postgres(url)`), each statement runs on a connection reserved for it
 *   (`sql.reserve()`, no network round trip), given back once the statement has ended and, after an
 *   abort, the cancel has been delivered. A statement is never pipelined behind the host's.
 * - On a reserved connection the caller hands in, the statements of every store on it run one at a
 *   time, in one queue, the next waiting for a cancel as on a single `pg` Client.
 *
 * Statements are unnamed (`prepare: false`) and need no session state, so PgBouncer in transaction
 * mode serves them; rows are read raw and decoded here, so the client's `types` and `transform`
 * options cannot change an id or a name.
 *
 * @param client - the `postgres` client, or a connection reserved from it
 * @param reserved - whether `client` is a reserved connection
 * @returns the runner
 */
export function postgresJsRunner(
  client: PostgresJsSqlLike | PostgresJsReservedLike,
  reserved: boolean,
): SqlRunner {
  if (reserved) {
    const connection = client as PostgresJsReservedLike;
    const serial = connectionQueue(connection);
    const run = (text: string, values: readonly unknown[], cancelled: Cancellation) => {
      let pending: PostgresJsPendingLike | undefined;
      return serial.run(
        () => {
          pending = statement(connection, text, values);
          return Promise.resolve(pending).then(rowsOf);
        },
        cancelled,
        () => cancelOf(pending),
      );
    };
    return {
      read: run,
      write: run,
      exec: async (text) => {
        await serial.run(() => inTransaction(connection, () => quietly(connection, text)));
      },
      idle: () => serial.drained(),
    };
  }
  const sql = client as PostgresJsSqlLike;
  return pooledRunner(reserving(sql), async (text) => {
    // begin(), unlike reserve(), rejects at once on a client that was ended.
    await sql.begin((transaction) => quietly(transaction, text));
  });
}

/**
 * Runs each statement on a connection reserved for it. On abort it rejects at once; a reservation
 * still waiting is given back when it comes, and a running statement is cancelled, its connection
 * given back only once the statement has ended and the cancel has been delivered (or has had its
 * time).
 */
function reserving(sql: PostgresJsSqlLike): PooledStatement {
  return async (text, values, cancelled, track) => {
    if (cancelled.aborted) throw abortError(cancelled);
    // The client cannot stop a reservation that waits: one that comes after the abort goes back.
    const connection = await raceAbort(sql.reserve(), cancelled, (late) => late.release());
    const pending = statement(connection, text, values);
    const running = Promise.resolve(pending);
    const stopCancelling = cancelled.onAbort(() => {
      const ended = running.then(noop, noop);
      track(Promise.all([ended, cancelOf(pending)]).then(() => connection.release()));
    });
    try {
      return rowsOf(await raceAbort(running, cancelled));
    } finally {
      stopCancelling();
      // After an abort the clean-up above gives the connection back, once it is safe to.
      if (!cancelled.aborted) connection.release();
    }
  };
}

function statement(
  target: PostgresJsConnectionLike,
  text: string,
  values: readonly unknown[],
): PostgresJsPendingLike {
  // Unnamed statements whatever the client's own `prepare` says: PgBouncer's transaction mode
  // hands each statement to any server connection, where a named one may not exist.
  return target.unsafe(text, [...values], { prepare: false }).raw();
}

/**
 * Runs a schema or readiness statement, in a transaction, with PostgreSQL's notices held back: the
 * client logs every notice by default (`onnotice`), and `CREATE TABLE IF NOT EXISTS` sends one at
 * each start-up once the table exists. `SET LOCAL` ends with the transaction.
 */
async function quietly(transaction: PostgresJsConnectionLike, text: string): Promise<void> {
  await statement(transaction, 'SET LOCAL client_min_messages TO warning', []);
  await statement(transaction, text, []);
}

/** `sql.begin()` for a reserved connection, which has none. */
async function inTransaction(
  connection: PostgresJsConnectionLike,
  work: () => Promise<void>,
): Promise<void> {
  await statement(connection, 'BEGIN', []);
  try {
    await work();
  } catch (error) {
    await Promise.resolve(statement(connection, 'ROLLBACK', [])).catch(noop);
    throw error;
  }
  await statement(connection, 'COMMIT', []);
}

/** Sends the statement's cancel and settles once it was delivered, failed, or had its time. */
function cancelOf(pending: PostgresJsPendingLike | undefined): Promise<void> {
  if (pending === undefined) return Promise.resolve();
  // As long as a cancel may take to be seen through; the connection is given back after it anyway.
  const cancelled = Promise.resolve(pending.cancel()).catch(() => undefined);
  return boundedWait(cancelled).then(() => undefined);
}

const decoder = new TextDecoder();

/**
 * Names the raw rows' values by their columns and decodes them as the text they are (every column
 * the stores read is text, or cast to it). The stores' columns are single lower-case words, so a
 * column transform of the client's (camel, Pascal, kebab case) changes only their case, undone here.
 */
function rowsOf(result: unknown): readonly unknown[] {
  const rows = result as readonly (readonly (Uint8Array | null)[])[] & {
    readonly columns?: readonly { readonly name: string }[] | null;
  };
  const names = (rows.columns ?? []).map((column) => column.name.toLowerCase());
  return rows.map((row) => {
    const named: Record<string, string | null> = Object.create(null) as Record<
      string,
      string | null
    >;
    names.forEach((name, index) => {
      const value = row[index];
      named[name] = value === null || value === undefined ? null : decoder.decode(value);
    });
    return named;
  });
}

const noop = (): undefined => undefined;

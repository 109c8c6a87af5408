import type { Cancellation } from '@plantstore/core';
import { abortError } from '@plantstore/core/store-kit';
import { backendKeyOf, sendCancelRequest } from './cancel-request';
import type { ClientKind, PGliteLike, SqlResult } from './clients';
import { runOnPool } from './pool-runner';
import { postgresJsRunner } from './postgres-js-runner';
import { pooledRunner, type SqlRunner } from './runner';
import { connectionQueue } from './serial-queue';

/**
 * Makes the runner for a client.
 *
 * - A pg **Pool** checks a connection out for each statement; on abort the statement is cancelled
 *   with a CancelRequest on a socket of its own (see `runOnPool`).
 * - A single pg **Client** runs its statements one at a time, in one queue for every store given
 *   that Client (the plant store and the replay store may share it); on abort a statement still
 *   waiting its turn is never sent, and one under way is cancelled the same way, the connection's
 *   next statement waiting until the cancel has been delivered: a cancel only ever reaches the
 *   statement that timed out.
 * - **PGlite**, in-process and serial (one queue per instance too), cannot be interrupted: a write
 *   checks the signal when PGlite gets to it, so an insert that waited for PGlite past the time-out
 *   is dropped instead of committed after the client heard 503.
 * - porsager's **`postgres`** client, or a connection reserved from it: see `postgresJsRunner`.
 *
 * @param target - the client and its kind
 * @returns the runner
 */
export function sqlRunner(target: ClientKind): SqlRunner {
  switch (target.kind) {
    case 'postgres':
    case 'postgres-reserved':
      return postgresJsRunner(target.client, target.kind === 'postgres-reserved');
    case 'pool': {
      const pool = target.client;
      return pooledRunner(
        (text, values, cancelled, track) => runOnPool(pool, text, values, cancelled, track),
        async (text) => {
          await pool.query(text);
        },
      );
    }
    case 'pglite': {
      const db = target.client;
      const serial = connectionQueue(db);
      return {
        read: (text, values, cancelled) =>
          serial.run(() => rowsOf(db.query(text, [...values])), cancelled),
        write: (text, values, cancelled) =>
          serial.run(() => writeUnlessAborted(db, text, values, cancelled), cancelled),
        exec: async (text) => {
          await db.waitReady;
          await serial.run(() => db.query(text));
        },
        idle: () => serial.drained(),
      };
    }
    case 'client': {
      const client = target.client;
      const serial = connectionQueue(client);
      const cancel = async (): Promise<void> => {
        const key = backendKeyOf(client);
        if (key !== undefined) await sendCancelRequest(key);
      };
      const run = (text: string, values: readonly unknown[], cancelled: Cancellation) =>
        serial.run(() => rowsOf(client.query(text, [...values])), cancelled, cancel);
      return {
        read: run,
        write: run,
        exec: async (text) => {
          await serial.run(() => client.query(text));
        },
        idle: () => serial.drained(),
      };
    }
  }
}

/**
 * Runs a writing statement on PGlite unless `cancelled` has fired by the time PGlite gets to it.
 * PGlite runs one statement at a time, so an insert may wait behind the host's own transaction, and
 * once it runs nothing can stop it: the check must happen in the statement's turn. It does. PGlite
 * picks a parameter's serialiser by the parameter's type, which it learns by describing the
 * statement in its turn, then binds, executes and commits in synchronous calls chained by settled
 * promises (in memory and on Node's file system), where no timer, the core's time-out included, can
 * run. The serialisers given here (for `int8` and `text`, the types of the insert's parameters)
 * refuse the values once the time-out has passed, so the statement is never executed; and a statement
 * that executed resolves before the time-out can fire, so its client hears 200, not 503. Measured
 * against the plain insert: about 10% more CPU per insert (PGlite's handling of per-query options);
 * a transaction checking the signal before COMMIT cost about 40% more (its BEGIN and COMMIT), and
 * is what to fall back on should a PGlite release bind before the turn (the PGlite tests hold
 * PGlite busy past a time-out and would fail).
 */
function writeUnlessAborted(
  db: PGliteLike,
  text: string,
  values: readonly unknown[],
  cancelled: Cancellation,
): Promise<readonly unknown[]> {
  const checked = (value: unknown): string => {
    if (cancelled.aborted) throw abortError(cancelled);
    return String(value);
  };
  return rowsOf(db.query(text, [...values], { serializers: { [INT8]: checked, [TEXT]: checked } }));
}

// Type OIDs of PostgreSQL, fixed in its catalogue.
const INT8 = 20;
const TEXT = 25;

function rowsOf(query: Promise<SqlResult>): Promise<readonly unknown[]> {
  return query.then(toRows);
}

const toRows = (result: SqlResult): readonly unknown[] => result.rows;

import { STORE_TIMEOUT_MS } from '@plantstore/core/store-kit';
import { Connection } from 'mysql2';
import type { MysqlConnectionLike } from './clients';

// A KILL that cannot get through within the kit's STORE_TIMEOUT_MS is given up on: the server is then unreachable,
// and the statement ends with the connection.

/**
 * What one attempt to kill a statement found: `killed`, the server that runs it set the kill;
 * `absent`, the server reached runs no statement with that mark under that connection id (it has
 * ended, or this is another server: a balancer, a proxy whose ids are not the server's);
 * `refused`, no answer (the server refused the connection, 1040 or a user limit, a proxy's cap,
 * or did not answer in time).
 */
export type KillOutcome = 'killed' | 'absent' | 'refused';

const ER_NO_SUCH_THREAD = 1094;

/**
 * Ends the statement a connection is running, on the server, with `KILL QUERY` sent from a
 * connection of its own opened with the same settings (a busy pool has none to spare, and the
 * connection running the statement cannot be interrupted from itself). The kill is sent only once
 * the process list of the server this connection reached shows the statement, by its mark, under
 * the target's connection id: a connection id names a thread on whichever server the kill lands on,
 * and another server's thread of that id must not lose its query. The server sets the kill before
 * it answers, so once this resolves `killed` the statement is ending or has ended; InnoDB rolls it
 * back, so an insert killed here commits nothing.
 *
 * @param target - the connection whose statement to end
 * @param mark - the mark in the statement's text (see `newMark`)
 * @returns what the attempt found
 */
export function killQuery(target: MysqlConnectionLike, mark: string): Promise<KillOutcome> {
  const threadId = target.threadId;
  if (typeof threadId !== 'number' || !Number.isSafeInteger(threadId)) {
    return Promise.resolve('refused');
  }
  return new Promise((resolve) => {
    // The same settings object the pool opens its connections with: the same server, user,
    // credentials and TLS, so the server lets this user kill its own statement. mysql2 builds its
    // pooled connections so, from a parsed ConnectionConfig; its types describe only the public
    // `createConnection(options)`, hence the cast.
    const killer = new Connection({ config: target.config } as ConstructorParameters<
      typeof Connection
    >[0]);
    const timer = setTimeout(() => finish('refused'), STORE_TIMEOUT_MS);
    let done = false;
    function finish(outcome: KillOutcome): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      killer.destroy();
      resolve(outcome);
    }
    // An unreachable server is reported here and by the query; neither may go unhandled.
    killer.on('error', () => finish('refused'));
    // A user sees its own threads in the process list without the PROCESS privilege. The mark is in
    // this query's text too: its own connection is left out, whatever its id.
    const ours =
      'SELECT 1 FROM information_schema.PROCESSLIST ' +
      `WHERE ID = ${threadId} AND ID <> CONNECTION_ID() AND INSTR(INFO, '${mark}') > 0`;
    killer.query({ sql: ours, rowsAsArray: true }, (error: unknown, rows: unknown) => {
      if (error !== null) return finish('refused');
      if (!Array.isArray(rows) || rows.length === 0) return finish('absent');
      killer.query(`KILL QUERY ${threadId}`, (failure: unknown) => {
        if (failure === null) return finish('killed');
        // 1094 ER_NO_SUCH_THREAD: the connection ended between the two statements.
        const { errno } = failure as { errno?: unknown };
        finish(errno === ER_NO_SUCH_THREAD ? 'absent' : 'refused');
      });
    });
  });
}

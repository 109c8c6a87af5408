import { Connection } from 'mysql2';
import type { MysqlConnectionLike } from './clients';

// A KILL that cannot get through within this long is given up on: the server is then unreachable,
// and the statement ends with the connection.
const KILL_TIMEOUT_MS = 5_000;

/**
 * Ends the statement a connection is running, on the server, with `KILL QUERY` sent from a
 * connection of its own opened with the same settings (a busy pool has none to spare, and the
 * connection running the statement cannot be interrupted from itself). The server sets the kill
 * before it answers, so once this resolves `true` the statement is ending or has ended; when it ends,
 * InnoDB rolls the statement back, so an insert killed here commits nothing.
 *
 * @param target - the connection whose statement to end
 * @returns whether the server confirmed the kill
 */
export function killQuery(target: MysqlConnectionLike): Promise<boolean> {
  const threadId = target.threadId;
  if (typeof threadId !== 'number' || !Number.isSafeInteger(threadId)) {
    return Promise.resolve(false);
  }
  return new Promise((resolve) => {
    // The same settings object the pool opens its connections with: the same server, user,
    // credentials and TLS, so the server lets this user kill its own statement. mysql2 builds its
    // pooled connections so, from a parsed ConnectionConfig; its types describe only the public
    // `createConnection(options)`, hence the cast.
    const killer = new Connection({ config: target.config } as ConstructorParameters<
      typeof Connection
    >[0]);
    const timer = setTimeout(() => finish(false), KILL_TIMEOUT_MS);
    let done = false;
    function finish(confirmed: boolean): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      killer.destroy();
      resolve(confirmed);
    }
    // An unreachable server is reported here and by the query; neither may go unhandled.
    killer.on('error', () => finish(false));
    killer.query(`KILL QUERY ${threadId}`, (error: unknown) => {
      // 1094 ER_NO_SUCH_THREAD: the connection is gone, and its statement with it.
      finish(error === null || (error as { errno?: unknown }).errno === 1094);
    });
  });
}

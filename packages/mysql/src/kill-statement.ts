import { boundedWait } from '@plantstore/core/store-kit';
import type { MysqlConnectionLike } from './clients';
import { killQuery, type KillOutcome } from './kill-query';

/** One statement to end on the server, and how to know when trying is over. */
export interface KillRequest {
  readonly target: MysqlConnectionLike;
  /** The mark in the statement's text (see `newMark`). */
  readonly mark: string;
  /**
   * Settles when the statement has ended, as its own connection saw it, or was given up on: no
   * attempt starts after that.
   */
  readonly until: Promise<unknown>;
  /**
   * Whether `until` settles when the statement ends. False for a statement whose connection was
   * lost: its end cannot be seen, so a server that shows no such statement is taken at its word.
   */
  readonly watching: boolean;
  /** One attempt; `killQuery` but in tests. */
  readonly attempt?: (target: MysqlConnectionLike, mark: string) => Promise<KillOutcome>;
}

// Between attempts, doubling: a server at its connection limit is asked again soon, not hammered.
const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 500;

/**
 * Ends a statement with `KILL QUERY`, retried while the statement runs: a kill the server refused
 * (too many connections, a user's limit, a proxy's cap) or that reached a server not running the
 * statement is tried again until the kill lands, the statement ends, or `until` gives up.
 *
 * @param request - the statement, its connection, and when to stop
 * @returns whether the connection may serve again once a late kill is taken up (`DO 0`): true when
 *   the kill reached the statement, or the statement ended with none delivered
 * @example
 * ```ts
 * const reusable = await killStatement({ target: connection, mark, until: ended, watching: true });
 * ```
 */
export async function killStatement(request: KillRequest): Promise<boolean> {
  const { target, mark, until, watching, attempt = killQuery } = request;
  let over = false;
  void until.then(() => {
    over = true;
  });
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    const outcome = await attempt(target, mark);
    if (outcome === 'killed' || over) return true;
    if (outcome === 'absent' && !watching) return false;
    await pauseUnless(pause, until);
    if (over) return true;
  }
}

function pauseUnless(ms: number, until: Promise<unknown>): Promise<unknown> {
  return boundedWait(until, ms);
}

import type { Cancellation } from '@plantstore/core';

/** Which server's time-limit syntax a connection speaks, from the version its greeting announced. */
export type ServerKind = 'mariadb' | 'mysql';

/**
 * The server behind a connection: MariaDB announces itself in its greeting's version
 * (`5.5.5-10.11.6-MariaDB`); anything else is taken for MySQL, whose time-limit hints MariaDB reads
 * as a comment, so a wrong guess costs the limit, never the statement.
 *
 * @param connection - a connection of mysql2's callback API (its greeting is `_handshakePacket`,
 *   which mysql2's types do not declare)
 * @returns the server's kind
 */
export function serverKindOf(connection: object): ServerKind {
  const { _handshakePacket: greeting } = connection as { _handshakePacket?: unknown };
  const version = (greeting as { serverVersion?: unknown } | null | undefined)?.serverVersion;
  return typeof version === 'string' && /mariadb/i.test(version) ? 'mariadb' : 'mysql';
}

// A statement the server can bound by itself: the stores' DML and their reads.
const BOUNDABLE = /^(INSERT|SELECT|UPDATE|DELETE)\b/;
// How much earlier than the time-out the server's own limit ends a statement: a tenth of what is
// left, at most this.
const MOST_ALLOWANCE_MS = 50;

/**
 * A statement that the server ends by itself once what is left of the store time-out has passed, so
 * that a timed-out insert cannot commit after its request was answered 503 even when no `KILL QUERY`
 * gets through (a server at its connection limit, a proxy whose connection ids are not the server's).
 *
 * The limit is a tenth of what is left (at most 50 ms) short of the time-out, so that the statement
 * is over before the client is answered.
 *
 * - **MariaDB**: `SET STATEMENT max_statement_time=<s> FOR …`, in seconds to the millisecond. It
 *   applies to every statement, DML included, and interrupts lock waits (a table under
 *   `LOCK TABLES … WRITE`, a row lock): the statement fails with 1969 and InnoDB rolls it back.
 * - **MySQL 8**: `max_execution_time` covers `SELECT` only, so DML carries the hint
 *   `SET_VAR(lock_wait_timeout=<s>)`, in whole seconds (rounded down, at least 1, so under a
 *   second the limit comes after the time-out and the kill is first): a wait for a metadata lock
 *   (`LOCK TABLES … WRITE`, DDL) fails with 1205. A `SELECT` also carries `MAX_EXECUTION_TIME(<ms>)`.
 *   An InnoDB row-lock wait stays bounded by the session's `innodb_lock_wait_timeout` (50 s by
 *   default), which no per-statement hint can set; the store's `KILL QUERY` covers it.
 *
 * A statement without a deadline (schema, pruning, a context the service did not make) and one the
 * server cannot bound are returned as they are.
 *
 * @param sql - the statement
 * @param server - the server's kind
 * @param cancelled - the call's time-out; its `expiresAt` is on `performance.now()`'s clock
 * @param now - `performance.now()`, for tests
 * @returns the statement as it is sent
 * @example
 * ```ts
 * deadlineSql('INSERT INTO `plants` …', 'mariadb', cancelled);
 * // 300 ms left: 'SET STATEMENT max_statement_time=0.270 FOR INSERT INTO `plants` …'
 * ```
 */
export function deadlineSql(
  sql: string,
  server: ServerKind,
  cancelled: Cancellation | undefined,
  now: number = performance.now(),
): string {
  const expiresAt = cancelled?.expiresAt;
  const verb = BOUNDABLE.exec(sql)?.[1];
  if (expiresAt === undefined || verb === undefined) return sql;
  // A little less than what is left, so that the statement is over before the client hears 503 (the
  // statement's trip to the server and its timer's delay come on top), and at least a millisecond:
  // MariaDB and MySQL both read 0 as "no limit".
  const left = expiresAt - now;
  const limitMs = Math.max(1, Math.floor(left - Math.min(MOST_ALLOWANCE_MS, left / 10)));
  if (server === 'mariadb') {
    return `SET STATEMENT max_statement_time=${(limitMs / 1000).toFixed(3)} FOR ${sql}`;
  }
  // Whole seconds: the last one before the time-out, or 1 (the least MySQL takes) under a second.
  const lockWait = `SET_VAR(lock_wait_timeout=${Math.max(1, Math.floor(limitMs / 1000))})`;
  const hints = verb === 'SELECT' ? `MAX_EXECUTION_TIME(${limitMs}) ${lockWait}` : lockWait;
  return `${verb} /*+ ${hints} */${sql.slice(verb.length)}`;
}

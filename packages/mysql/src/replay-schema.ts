import { tableName } from './table-name';

/** The table {@link replaySchemaSql} and `mysqlReplayStore` use when none is given. */
export const DEFAULT_REPLAY_TABLE = 'plantstore_dpop_replay';

/**
 * The SQL that creates the replay table of `mysqlReplayStore`, idempotently, for your own
 * migrations; the store runs the same statement when it finds the table missing.
 *
 * - `proof_key VARBINARY(255) PRIMARY KEY`: the key as bytes, so no collation merges two keys (a
 *   key is at most 128 ASCII characters); the primary key makes remembering atomic.
 * - `expires_at BIGINT NOT NULL`: epoch milliseconds by the service's clock, indexed for pruning.
 *
 * @param table - the table name, optionally database-qualified. Default `plantstore_dpop_replay`
 * @returns one `CREATE TABLE IF NOT EXISTS` statement, without a trailing semicolon
 * @throws TypeError when `table` is not a plain identifier
 * @example
 * ```ts
 * await migrations.add('dpop-replay', replaySchemaSql('app.dpop_replay'));
 * ```
 */
export function replaySchemaSql(table: string = DEFAULT_REPLAY_TABLE): string {
  return [
    `CREATE TABLE IF NOT EXISTS ${tableName(table, 'mysqlReplayStore').quoted} (`,
    '  proof_key VARBINARY(255) NOT NULL PRIMARY KEY,',
    '  expires_at BIGINT NOT NULL,',
    '  KEY expires_at (expires_at)',
    ') ENGINE=InnoDB',
  ].join('\n');
}

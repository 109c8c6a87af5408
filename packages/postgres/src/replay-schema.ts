import { describeValue, optionError } from '@plantstore/core/adapter';
import { quoteTableName } from './table-name';

/** The table {@link replaySchemaSql} and `postgresReplayStore` use when none is given. */
export const DEFAULT_REPLAY_TABLE = 'plantstore_dpop_replay';

const INDEX_SUFFIX = '_expires_at';
// The index is named after the table, within PostgreSQL's 63 bytes for an identifier.
const MAX_NAME = 63 - INDEX_SUFFIX.length;

/** The checked, quoted names of the replay table and of its index on `expires_at`. */
export interface ReplayTableNames {
  /** The table, quoted and optionally schema-qualified: `"plantstore_dpop_replay"`. */
  readonly table: string;
  /** The index, quoted and unqualified (an index lives in its table's schema). */
  readonly index: string;
}

/**
 * Checks and quotes the replay table's name, and names its index after it.
 *
 * @param table - the name the caller passed, optionally schema-qualified
 * @returns the quoted names
 * @throws TypeError when `table` is not one or two identifiers, or its last part is over 52 characters
 */
export function replayTableNames(table: unknown): ReplayTableNames {
  const quoted = quoteTableName(table, 'postgresReplayStore');
  const name = String(table).split('.').pop() ?? '';
  if (name.length > MAX_NAME) {
    optionError(
      'postgresReplayStore',
      'table',
      `must name a table of at most ${MAX_NAME} characters, so that its index ` +
        `"<table>${INDEX_SUFFIX}" fits PostgreSQL's 63`,
      describeValue(name),
    );
  }
  return { table: quoted, index: `"${name}${INDEX_SUFFIX}"` };
}

/**
 * The statements that create the replay table and its index, idempotently (`IF NOT EXISTS`): one
 * place the schema is written. `postgresReplayStore` runs them when it finds the table missing, and
 * the package's `replay-schema.sql` is this text for the default table (a test keeps the two equal).
 *
 * @param table - the table name, optionally schema-qualified. Default `plantstore_dpop_replay`
 * @returns the `CREATE TABLE` and `CREATE INDEX` statements, in order, without semicolons
 * @throws TypeError when `table` is not a plain identifier of at most 52 characters per part
 */
export function replaySchemaStatements(table: string = DEFAULT_REPLAY_TABLE): readonly string[] {
  const names = replayTableNames(table);
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${names.table} (`,
      '  key TEXT COLLATE "C" PRIMARY KEY,',
      '  expires_at BIGINT NOT NULL',
      ')',
    ].join('\n'),
    `CREATE INDEX IF NOT EXISTS ${names.index} ON ${names.table} (expires_at)`,
  ];
}

/**
 * The SQL that creates the replay table of `postgresReplayStore`, for your own migrations: a
 * `CREATE TABLE IF NOT EXISTS` and a `CREATE INDEX IF NOT EXISTS`, separated by a semicolon.
 *
 * - `key TEXT COLLATE "C" PRIMARY KEY`: the key as given, compared byte for byte (no locale can
 *   merge two keys, and no change of the system's collation library can reorder the index); the
 *   primary key makes remembering atomic.
 * - `expires_at BIGINT NOT NULL`: epoch milliseconds by the service's clock, indexed for pruning.
 *
 * @param table - the table name, optionally schema-qualified. Default `plantstore_dpop_replay`
 * @returns the two statements, without a trailing semicolon
 * @throws TypeError when `table` is not a plain identifier of at most 52 characters per part
 * @example
 * ```ts
 * await migrations.add('dpop-replay', replaySchemaSql('app.dpop_replay'));
 * ```
 */
export function replaySchemaSql(table: string = DEFAULT_REPLAY_TABLE): string {
  return replaySchemaStatements(table).join(';\n');
}

/** The text of the package's `replay-schema.sql`: a header and {@link replaySchemaSql}. */
export function replaySchemaFileText(): string {
  return [
    '-- The DPoP replay table of @plantstore/postgres. postgresReplayStore() runs these same',
    '-- statements (for the table name you configure) when it finds the table missing; run them',
    '-- yourself if your migrations own the schema.',
    '-- Generated from src/replay-schema.ts: edit there, a test keeps this file equal to it.',
    `${replaySchemaSql()};`,
    '',
  ].join('\n');
}

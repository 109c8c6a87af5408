import { tableName } from './table-name';

/** The table {@link mysqlSchemaSql} and `mysqlStore` use when none is given. */
export const DEFAULT_TABLE = 'plants';

/**
 * The SQL that creates the plant store's table, idempotently (`CREATE TABLE IF NOT EXISTS`), for
 * your own migrations; `ensureSchema()` runs the same statement.
 *
 * - `id BIGINT PRIMARY KEY`: the exact int64 id; the primary key makes insert-if-absent atomic.
 * - `name`, `tag` (NULL when the plant has no tag): `MEDIUMTEXT` in `utf8mb4` with the binary
 *   collation, so every character (4-byte ones too) is kept and no collation merges two values. The
 *   store reads them back as bytes; the core compares them, never the server.
 * - `created_at`, `created_by`: when, and by which principal's subject, the plant was created.
 *
 * @param table - the table name, optionally database-qualified. Default `plants`
 * @returns one `CREATE TABLE IF NOT EXISTS` statement, without a trailing semicolon
 * @throws TypeError when `table` is not a plain identifier
 * @example
 * ```ts
 * await migrations.add('plants', mysqlSchemaSql('app.plants'));
 * ```
 */
export function mysqlSchemaSql(table: string = DEFAULT_TABLE): string {
  const text = 'MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
  return [
    `CREATE TABLE IF NOT EXISTS ${tableName(table, 'mysqlStore').quoted} (`,
    '  id BIGINT NOT NULL PRIMARY KEY,',
    `  name ${text} NOT NULL,`,
    `  tag ${text} NULL,`,
    '  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),',
    `  created_by ${text} NULL`,
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
  ].join('\n');
}

import { outboxSchemaStatements, outboxTableNames } from './outbox-schema';
import { tableName } from './table-name';

/** The table {@link schemaSql} and `mysqlStore` use when none is given. */
export const DEFAULT_TABLE = 'plants';

/**
 * The SQL that creates the plant store's tables, idempotently (`CREATE TABLE IF NOT EXISTS`), for
 * your own migrations, the statements separated by semicolons; `ensureSchema()` runs the same
 * statements.
 *
 * - `tenant VARCHAR(128)` in `ascii` with the binary collation (`''` when tenants are off) and
 *   `id BIGINT`, the exact int64 id: the primary key `(tenant, id)` makes insert-if-absent atomic
 *   per tenant, and compares tenants byte for byte (`org-a` and `ORG-A` are two).
 * - `name`, `tag` (NULL when the plant has no tag): `MEDIUMTEXT` in `utf8mb4` with the binary
 *   collation, so every character (4-byte ones too) is kept and no collation merges two values. The
 *   store reads them back as bytes; the core compares them, never the server.
 * - `created_by`, `client_id`, `token_id` (NULL when the token had none), `created_at` (UTC): who
 *   created the plant, through which client and token, and when; kept for audit and the owner rule.
 * - the outbox of the `events` option: `<table>_events` and `<table>_events_lease` (none for a
 *   table name over 51 characters, which the outbox's names would not fit).
 *
 * @param table - the table name, optionally database-qualified. Default `plants`
 * @returns the `CREATE TABLE IF NOT EXISTS` statements, without a trailing semicolon
 * @throws TypeError when `table` is not a plain identifier
 * @example
 * ```ts
 * await migrations.add('plants', schemaSql('app.plants'));
 * ```
 */
export function schemaSql(table: string = DEFAULT_TABLE): string {
  return schemaStatements(table).join(';\n\n');
}

/**
 * The statements of {@link schemaSql}, one by one: the plants table, then the outbox's tables.
 *
 * @param table - the table name, optionally database-qualified
 * @returns the statements, without semicolons
 */
export function schemaStatements(table: string): readonly string[] {
  const names = outboxTableNames(tableName(table, 'mysqlStore'));
  return [plantsTableSql(table), ...(names === undefined ? [] : outboxSchemaStatements(names))];
}

function plantsTableSql(table: string): string {
  const text = 'MEDIUMTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';
  return [
    `CREATE TABLE IF NOT EXISTS ${tableName(table, 'mysqlStore').quoted} (`,
    "  tenant VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL DEFAULT '',",
    '  id BIGINT NOT NULL,',
    `  name ${text} NOT NULL,`,
    `  tag ${text} NULL,`,
    '  created_at DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),',
    `  created_by ${text} NULL,`,
    `  client_id ${text} NULL,`,
    `  token_id ${text} NULL,`,
    '  PRIMARY KEY (tenant, id)',
    ') ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin',
  ].join('\n');
}

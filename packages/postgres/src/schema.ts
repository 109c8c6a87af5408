import { outboxSchemaStatements, outboxTableNames } from './outbox-schema';
import { DEFAULT_TABLE, quoteTableName } from './table-name';

/**
 * The SQL that creates the store's tables, idempotently (`CREATE TABLE IF NOT EXISTS`), the
 * statements separated by semicolons. This is the one place the schema is written:
 * `ensureSchema()` runs it, and the package's `schema.sql` is this text for the default table (a
 * test keeps the two equal).
 *
 * - `tenant TEXT`, `id BIGINT`, `PRIMARY KEY (tenant, id)`: the exact int64 id in its tenant (`''`
 *   when the service keeps one id space); the key makes insert-if-absent atomic.
 * - `name TEXT NOT NULL`, `tag TEXT` (NULL when the plant has no tag): kept byte for byte.
 * - `created_by`, `client_id`, `created_at`, `token_id`: the token's `sub`, its client, the core's
 *   clock and the token's `jti`, for audit and for the owner rule of a replay.
 * - the outbox of the `events` option: `<table>_events` and `<table>_events_lease` (none for a
 *   table name over 50 characters, which the outbox's names would not fit).
 *
 * @param table - the table name, optionally schema-qualified. Default `plants`
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
 * @param table - the table name, optionally schema-qualified
 * @returns the statements, without semicolons
 */
export function schemaStatements(table: string): readonly string[] {
  const names = outboxTableNames(table);
  return [plantsTableSql(table), ...(names === undefined ? [] : outboxSchemaStatements(names))];
}

function plantsTableSql(table: string): string {
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteTableName(table)} (`,
    "  tenant TEXT NOT NULL DEFAULT '',",
    '  id BIGINT NOT NULL,',
    '  name TEXT NOT NULL,',
    '  tag TEXT,',
    '  created_by TEXT,',
    '  client_id TEXT,',
    '  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),',
    '  token_id TEXT,',
    '  PRIMARY KEY (tenant, id)',
    ')',
  ].join('\n');
}

/** The text of the package's `schema.sql`: a header and {@link schemaSql} for the default table. */
export function schemaFileText(): string {
  return [
    '-- The tables of @plantstore/postgres. postgresStore().ensureSchema() runs these same statements',
    '-- (for the table name you configure); run them yourself if your migrations own the schema.',
    '-- Generated from src/schema.ts: edit there, a test keeps this file equal to it.',
    `${schemaSql()};`,
    '',
  ].join('\n');
}

import { DEFAULT_TABLE, quoteTableName } from './table-name';

/**
 * The SQL that creates the store's table, idempotently (`CREATE TABLE IF NOT EXISTS`). This is the
 * one place the schema is written: `ensureSchema()` runs it, and the package's `schema.sql` is this
 * text for the default table (a test keeps the two equal).
 *
 * - `id BIGINT PRIMARY KEY`: the exact int64 id; the primary key makes insert-if-absent atomic.
 * - `name TEXT NOT NULL`, `tag TEXT` (NULL when the plant has no tag): kept byte for byte.
 * - `created_at`, `created_by`: when, and by which principal's subject, the plant was created.
 *
 * @param table - the table name, optionally schema-qualified. Default `plants`
 * @returns one `CREATE TABLE IF NOT EXISTS` statement, without a trailing semicolon
 * @throws TypeError when `table` is not a plain identifier
 * @example
 * ```ts
 * await migrations.add('plants', schemaSql('app.plants'));
 * ```
 */
export function schemaSql(table: string = DEFAULT_TABLE): string {
  return [
    `CREATE TABLE IF NOT EXISTS ${quoteTableName(table)} (`,
    '  id BIGINT PRIMARY KEY,',
    '  name TEXT NOT NULL,',
    '  tag TEXT,',
    '  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),',
    '  created_by TEXT',
    ')',
  ].join('\n');
}

/** The text of the package's `schema.sql`: a header and {@link schemaSql} for the default table. */
export function schemaFileText(): string {
  return [
    '-- The table of @plantstore/postgres. postgresStore().ensureSchema() runs this same statement',
    '-- (for the table name you configure); run it yourself if your migrations own the schema.',
    '-- Generated from src/schema.ts: edit there, a test keeps this file equal to it.',
    `${schemaSql()};`,
    '',
  ].join('\n');
}

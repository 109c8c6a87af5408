import { cancellation } from '@plantstore/core';
import { sqlStateOf } from './create-schema';
import type { SqlRunner } from './runner';

// One row per column of the table: its type as declared and as its domain's base type, whether it
// must be given a value on insert, and whether a unique index can arbitrate `ON CONFLICT (tenant,
// id)` (immediate, not partial, on those two key columns). Single-word lower-case names,
// so that a client's column-name transform (postgres.js `transform: camel`) leaves them as they are.
const COLUMNS_SQL = `SELECT a.attname::text AS column,
  format_type(a.atttypid, a.atttypmod) AS declared,
  format_type(COALESCE(NULLIF(t.typbasetype, 0), a.atttypid),
    CASE WHEN t.typbasetype <> 0 THEN t.typtypmod ELSE a.atttypmod END) AS base,
  a.attnotnull AND NOT (a.atthasdef OR a.attidentity <> '') AS required,
  a.attnotnull AS notnull,
  EXISTS (SELECT 1 FROM pg_index i JOIN pg_attribute k ON k.attrelid = i.indrelid
    AND k.attname = 'tenant' WHERE i.indrelid = a.attrelid AND i.indisunique AND i.indimmediate
    AND i.indpred IS NULL AND i.indnkeyatts = 2 AND a.attnum IN (i.indkey[0], i.indkey[1])
    AND k.attnum IN (i.indkey[0], i.indkey[1])) AS keyed,
  current_setting('server_encoding') AS encoding
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attrelid = to_regclass($1::text) AND a.attnum > 0 AND NOT a.attisdropped`;

export interface Column {
  readonly column: string;
  readonly declared: string;
  readonly base: string;
  readonly required: boolean;
  readonly notnull: boolean;
  readonly keyed: boolean;
  readonly encoding: string;
}

// The text the store writes: `text`, or `varchar` without a length. A `varchar(n)` refuses a long
// name, or cuts trailing spaces off it; `char(n)` pads it, so it no longer reads back as sent.
const TEXT_TYPES = new Set(['text', 'character varying']);
// SQL_ASCII keeps the bytes it is given, unchecked: UTF-8 reads back as it was written.
const ENCODINGS = new Set(['UTF8', 'SQL_ASCII']);
// An engine on the Postgres wire whose catalogue lacks what the statement reads (undefined
// column, function or table; feature not supported): it is not checked, as before this check.
const CATALOGUE_MISSING_CLASSES = ['42', '0A'];

/**
 * Reads the columns of `table` from the catalogue, for {@link checkColumns}.
 *
 * @param runner - the store's runner
 * @param table - the table, quoted as the store's SQL names it
 * @returns its columns, or `undefined` on an engine whose catalogue cannot tell
 * @throws the driver's error when the database fails otherwise
 */
export async function readColumns(
  runner: SqlRunner,
  table: string,
): Promise<readonly Column[] | undefined> {
  const unbounded = cancellation({ signal: new AbortController().signal });
  try {
    return (await runner.read(COLUMNS_SQL, [table], unbounded)) as Column[];
  } catch (error) {
    const state = sqlStateOf(error);
    if (CATALOGUE_MISSING_CLASSES.some((prefix) => state.startsWith(prefix))) return undefined;
    throw error;
  }
}

/**
 * Checks that a table the store did not create can keep what the store writes, so that a mismatch
 * stops the start-up, named, rather than answering 500 to every create (an `integer` id past
 * 2^31, a `NOT NULL` tag, no unique key for `ON CONFLICT (id)`) or keeping something else than was
 * sent (a `char(n)` name padded with spaces).
 *
 * @param columns - what {@link readColumns} read; `undefined` is not checked
 * @param table - the table, quoted, for the message
 * @throws Error naming each column that does not fit, and what to change
 */
export function checkColumns(columns: readonly Column[] | undefined, table: string): void {
  if (columns === undefined) return;
  const found = new Map(columns.map((column) => [column.column, column]));
  const missing = NEW_COLUMNS.filter((name) => !found.has(name));
  if (found.has('id') && missing.length > 0) {
    throw new Error(
      `The table ${table} is of the schema before plants kept their tenant and owner (no ` +
        `${missing.join(', ')}). Run the migration of docs/guides/upgrading.md ("Plants keep ` +
        'their owner and tenant") on it, then start again.',
    );
  }
  const problems: string[] = [];
  const encoding = columns[0]?.encoding;
  if (encoding !== undefined && !ENCODINGS.has(encoding)) {
    problems.push(`the database's encoding is ${encoding}, not UTF8`);
  }
  const id = found.get('id');
  if (id === undefined) problems.push('column id is missing');
  else {
    if (id.base !== 'bigint') problems.push(`column id is ${id.declared}, not bigint`);
    if (!isTrue(id.keyed)) problems.push('(tenant, id) is not the primary key or unique');
  }
  for (const name of TEXT_COLUMNS) {
    const column = found.get(name);
    if (column === undefined) problems.push(`column ${name} is missing`);
    else if (!TEXT_TYPES.has(column.base)) {
      problems.push(`column ${name} is ${column.declared}, not text`);
    }
    if (!NOT_NULL.has(name) && column !== undefined && isTrue(column.notnull)) {
      problems.push(`column ${name} is NOT NULL, and the store writes NULL when there is none`);
    }
  }
  const createdAt = found.get('created_at');
  if (createdAt !== undefined && createdAt.base !== 'timestamp with time zone') {
    problems.push(`column created_at is ${createdAt.declared}, not timestamptz`);
  }
  for (const column of columns) {
    if (!WRITTEN.has(column.column) && isTrue(column.required)) {
      problems.push(
        `column ${column.column} is NOT NULL without a default, and the store omits it`,
      );
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `The table ${table} exists but cannot keep plants exactly: ${problems.join('; ')}. ` +
        'Alter it to the columns of schemaSql() (tenant TEXT, id BIGINT, PRIMARY KEY (tenant, ' +
        'id); name, tag, created_by, client_id and token_id TEXT, all but name nullable; ' +
        'created_at TIMESTAMPTZ) or name another table.',
    );
  }
}

// The columns the schema gained when plants kept their tenant and owner: a table without them is
// the earlier schema, and its fix is the migration, not a list of problems.
const NEW_COLUMNS = ['tenant', 'client_id', 'token_id'] as const;
const TEXT_COLUMNS = ['tenant', 'name', 'tag', 'created_by', 'client_id', 'token_id'] as const;
const NOT_NULL: ReadonlySet<string> = new Set(['tenant', 'name']);
const WRITTEN: ReadonlySet<string> = new Set([...TEXT_COLUMNS, 'id', 'created_at']);

// A client's own type parser may hand a boolean over as PostgreSQL's text for it.
function isTrue(value: unknown): boolean {
  return value === true || value === 't';
}

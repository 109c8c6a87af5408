import { textOf } from './sql-text';
import type { TableName } from './table-name';

/**
 * The statement that lists a table's columns with their type and character set, read by
 * {@link checkColumns}.
 *
 * @param name - the table
 * @returns a `SELECT` on `information_schema.COLUMNS`
 */
export function columnsSql(name: TableName): string {
  const database = name.database === undefined ? 'DATABASE()' : `'${name.database}'`;
  return (
    'SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_SET_NAME, COLUMN_TYPE, COLUMN_KEY, COLLATION_NAME ' +
    'FROM information_schema.COLUMNS ' +
    `WHERE TABLE_SCHEMA = ${database} AND TABLE_NAME = '${name.table}'`
  );
}

/**
 * What a column must be: `key`, the id (a signed `BIGINT` in the primary key, which makes
 * insert-if-absent atomic); `tenant`, the other part of that key, compared byte for byte (a binary
 * collation or a binary type); `text`, a plant's text (a `TEXT` type: a `VARCHAR(n)` cuts a long
 * name, silently outside strict SQL mode); `subject`, text of any type. Text is `utf8mb4` or binary.
 */
export type ColumnKind = 'key' | 'tenant' | 'text' | 'subject';

// The columns the schema gained when plants kept their tenant and owner: a table without them is
// the earlier schema, and its fix is the migration, not a list of problems.
const NEW_COLUMNS = ['tenant', 'client_id', 'token_id'] as const;

const TEXT_TYPES = new Set(['text', 'mediumtext', 'longtext']);

/**
 * Checks that a table the store did not create can keep what the store writes: the columns it
 * names exist and can hold every value exactly, whatever the server's SQL mode. A `utf8`/`utf8mb3`
 * column cannot hold a 4-byte character (an emoji), an unsigned id a negative one, a `VARCHAR(20)` a
 * long name, and without a primary key on the id two inserts of one id both succeed: depending on
 * the SQL mode the server refuses such an insert or keeps something else than was sent (`?`, `0`,
 * a cut name), so the table is refused at start-up instead.
 *
 * @param rows - the rows of {@link columnsSql}, as arrays
 * @param name - the table, for the message
 * @param expected - each column the store writes, and what it holds
 * @throws Error naming each column that does not fit, and what to change
 */
export function checkColumns(
  rows: unknown,
  name: TableName,
  expected: Readonly<Record<string, ColumnKind>>,
): void {
  const found = new Map<
    string,
    { type: string; charset: string | undefined; full: string; key: string; collation: string }
  >();
  for (const row of Array.isArray(rows) ? (rows as unknown[][]) : []) {
    found.set(String(textOf(row[0])).toLowerCase(), {
      type: String(textOf(row[1])).toLowerCase(),
      charset: textOf(row[2]),
      full: String(textOf(row[3])).toLowerCase(),
      key: String(textOf(row[4])).toUpperCase(),
      collation: String(textOf(row[5]) ?? 'binary').toLowerCase(),
    });
  }
  const missing = NEW_COLUMNS.filter((column) => !found.has(column));
  if (found.has('id') && missing.length > 0) {
    throw new Error(
      `The table ${name.quoted} is of the schema before plants kept their tenant and owner (no ` +
        `${missing.join(', ')}). Run the migration of docs/guides/upgrading.md ("Plants keep ` +
        'their owner and tenant") on it, then start again.',
    );
  }
  const problems: string[] = [];
  for (const [column, kind] of Object.entries(expected)) {
    const actual = found.get(column);
    if (actual === undefined) problems.push(`column ${column} is missing`);
    else if (kind === 'key') {
      if (actual.type !== 'bigint' || actual.full.includes('unsigned')) {
        problems.push(`column ${column} is ${actual.full}, not a signed bigint`);
      }
      if (actual.key !== 'PRI') problems.push(`column ${column} is not the primary key`);
    } else if (kind === 'tenant') {
      if (actual.key !== 'PRI') problems.push(`column ${column} is not in the primary key`);
      if (actual.collation !== 'binary' && !actual.collation.endsWith('_bin')) {
        problems.push(`column ${column} is in ${actual.collation}, not a binary collation`);
      }
    } else {
      if (kind === 'text' && !TEXT_TYPES.has(actual.type)) {
        problems.push(`column ${column} is ${actual.full}, not a text type that holds any name`);
      }
      if (actual.charset !== undefined && actual.charset !== 'utf8mb4') {
        problems.push(`column ${column} is in ${actual.charset}, not utf8mb4`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `The table ${name.quoted} exists but cannot keep plants exactly: ${problems.join('; ')}. ` +
        'Alter it to the columns of schemaSql() (tenant VARCHAR(128) ascii_bin, id BIGINT, ' +
        'PRIMARY KEY (tenant, id); name and tag MEDIUMTEXT, all text utf8mb4 with COLLATE ' +
        'utf8mb4_bin) or name another table.',
    );
  }
}

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
    'SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_SET_NAME FROM information_schema.COLUMNS ' +
    `WHERE TABLE_SCHEMA = ${database} AND TABLE_NAME = '${name.table}'`
  );
}

/**
 * Checks that a table the store did not create can keep what the store writes: the columns it
 * names exist, the integer ones are `BIGINT`, and the text ones are `utf8mb4` or binary. A
 * `utf8`/`utf8mb3` column cannot hold a 4-byte character (an emoji): depending on the SQL mode the
 * server refuses the insert or stores `?`, so the table is refused at start-up instead.
 *
 * @param rows - the rows of {@link columnsSql}, as arrays
 * @param name - the table, for the message
 * @param expected - each column the store writes, and whether it holds an integer or text
 * @throws Error naming each column that does not fit, and what to change
 */
export function checkColumns(
  rows: unknown,
  name: TableName,
  expected: Readonly<Record<string, 'bigint' | 'text'>>,
): void {
  const found = new Map<string, { type: string; charset: string | undefined }>();
  for (const row of Array.isArray(rows) ? (rows as unknown[][]) : []) {
    found.set(String(textOf(row[0])).toLowerCase(), {
      type: String(textOf(row[1])).toLowerCase(),
      charset: textOf(row[2]),
    });
  }
  const problems: string[] = [];
  for (const [column, kind] of Object.entries(expected)) {
    const actual = found.get(column);
    if (actual === undefined) problems.push(`column ${column} is missing`);
    else if (kind === 'bigint' && actual.type !== 'bigint') {
      problems.push(`column ${column} is ${actual.type}, not bigint`);
    } else if (kind === 'text' && actual.charset !== undefined && actual.charset !== 'utf8mb4') {
      problems.push(`column ${column} is in ${actual.charset}, not utf8mb4`);
    }
  }
  if (problems.length > 0) {
    throw new Error(
      `The table ${name.quoted} exists but cannot keep plants exactly: ${problems.join('; ')}. ` +
        'Convert it (ALTER TABLE … CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_bin) or name ' +
        'another table.',
    );
  }
}

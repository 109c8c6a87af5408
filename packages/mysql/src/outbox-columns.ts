import { textOf } from './sql-text';
import type { TableName } from './table-name';

// What the outbox reads and writes, by column: the types that keep it exactly. `body` above all:
// the event's JSON is handed on byte for byte, which a `JSON` column (MySQL reorders and respaces
// it) does not keep.
const EXPECTED: Readonly<Record<string, readonly string[]>> = {
  seq: ['bigint'],
  event_id: ['varchar', 'varbinary'],
  tenant: ['varchar', 'varbinary'],
  plant_id: ['bigint'],
  type: ['varchar', 'varbinary'],
  time: ['datetime'],
  body: ['mediumtext', 'longtext', 'mediumblob', 'longblob'],
  attempts: ['int', 'bigint'],
  next_attempt_at: ['datetime'],
  last_error: ['text', 'mediumtext', 'longtext', 'blob', 'mediumblob', 'longblob'],
  dead: ['tinyint'],
};

/**
 * Checks that an events table the store did not create (an earlier one, or your migration's) has
 * every column the outbox uses, of a type that keeps it exactly, its text in `utf8mb4` or binary.
 *
 * @param rows - the rows of `columnsSql` for the events table, as arrays
 * @param name - the events table, for the message
 * @throws Error naming each column that does not fit
 */
export function checkOutboxColumns(rows: unknown, name: TableName): void {
  const found = new Map<string, { type: string; charset: string | undefined }>();
  for (const row of rows as unknown[][]) {
    const type = String(textOf(row[1])).toLowerCase();
    found.set(String(textOf(row[0])), { type, charset: textOf(row[2])?.toLowerCase() });
  }
  const problems = Object.entries(EXPECTED).flatMap(([column, types]) => {
    const actual = found.get(column);
    if (actual === undefined) return [`column ${column} is missing`];
    if (!types.includes(actual.type))
      return [`column ${column} is ${actual.type}, not ${types[0]}`];
    const { charset } = actual;
    const utf8 = charset === undefined || charset === 'utf8mb4';
    return utf8 ? [] : [`column ${column} is in ${charset}, not utf8mb4`];
  });
  if (problems.length > 0) {
    throw new Error(
      `The outbox table ${name.quoted} exists but cannot keep events exactly: ` +
        `${problems.join('; ')}. Alter it to the columns of schemaSql() or drop it while it ` +
        'holds no event.',
    );
  }
}

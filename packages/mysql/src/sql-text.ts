// The stores write every value into the statement's text themselves, in forms that mean the same
// whatever the connection's character set, SQL mode or mysql2 settings (`queryFormat`,
// `namedPlaceholders`) are: the statement is plain ASCII.

/**
 * A string as a `utf8mb4` value: its UTF-8 bytes as a hexadecimal literal, labelled `utf8mb4`. The
 * bytes reach the column unchanged, however the connection's character set would have encoded a
 * quoted string (a `utf8mb3` or `latin1` connection turns a 4-byte character into `?`).
 *
 * @param text - the string, or `undefined` for SQL NULL
 * @returns the SQL expression
 */
export function utf8Literal(text: string | undefined): string {
  if (text === undefined) return 'NULL';
  return `CONVERT(X'${Buffer.from(text, 'utf8').toString('hex')}' USING utf8mb4)`;
}

/**
 * Bytes as a binary literal, for a `VARBINARY` key compared byte for byte.
 *
 * @param text - the string, kept as its UTF-8 bytes
 * @returns the SQL expression
 */
export function binaryLiteral(text: string): string {
  return `X'${Buffer.from(text, 'utf8').toString('hex')}'`;
}

/**
 * An ASCII string (a tenant) in the `ascii_bin` collation of the tenant column, so that the key's
 * index is used and the comparison is byte for byte, whatever the connection's collation.
 *
 * @param text - the string, checked ASCII by the core
 * @returns the SQL expression
 */
export function asciiLiteral(text: string): string {
  return text === ''
    ? "_ascii'' COLLATE ascii_bin"
    : `_ascii X'${Buffer.from(text, 'ascii').toString('hex')}' COLLATE ascii_bin`;
}

/**
 * An integer as a decimal literal: exact over the whole int64 range, where a number parameter would
 * be rounded past 2^53 and a quoted one compared with an integer column as a double.
 *
 * @param value - the integer
 * @returns its decimal text
 */
export function integerLiteral(value: bigint): string {
  return value.toString();
}

/** The text of a column read as bytes (mysql2 hands binary columns back as a Buffer). */
export function textOf(value: unknown): string | undefined {
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return typeof value === 'string' ? value : undefined;
}

/**
 * An instant as a `DATETIME(3)` literal: the UTC time to the millisecond (the column keeps no zone,
 * and no session setting shifts a literal).
 *
 * @param at - the instant
 * @returns `'2026-01-02 03:04:05.678'`
 */
export function datetimeLiteral(at: Date): string {
  return `'${at.toISOString().slice(0, 23).replace('T', ' ')}'`;
}

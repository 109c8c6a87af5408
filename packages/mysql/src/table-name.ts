import { describeValue, optionError } from '@plantstore/core/adapter';
import type { Factory } from './clients';

/** A table name, checked, in the forms the stores' SQL needs. */
export interface TableName {
  /** Quoted for SQL text: `` `plants` ``, `` `app`.`plants` ``. */
  readonly quoted: string;
  /** The database part, or `undefined` for the connection's current database. */
  readonly database: string | undefined;
  /** The table part, unquoted. */
  readonly table: string;
}

// MySQL allows 64 characters for a database or table name; refuse rather than let it fail later.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,63}$/;

/**
 * Checks a table name, optionally database-qualified (`plants`, `app.plants`), and quotes each part
 * once, so the name can be spliced into SQL text safely.
 *
 * @param name - the name the caller passed
 * @param factory - who is checking, for the message
 * @param maxLength - the most characters the table part may have. Default 64
 * @returns the checked name
 * @throws TypeError when `name` is not one or two plain identifiers joined by a dot
 */
export function tableName(name: unknown, factory: Factory, maxLength = 64): TableName {
  const parts = typeof name === 'string' ? name.split('.') : [];
  const table = parts[parts.length - 1] ?? '';
  if (
    parts.length < 1 ||
    parts.length > 2 ||
    !parts.every((part) => IDENTIFIER.test(part)) ||
    table.length > maxLength
  ) {
    optionError(
      factory,
      'table',
      'must be a table name, optionally database-qualified, of letters, digits, _ and $ ' +
        `(at most ${maxLength} for the table, not starting with a digit)`,
      describeValue(name),
    );
  }
  return {
    quoted: parts.map((part) => `\`${part}\``).join('.'),
    database: parts.length === 2 ? parts[0] : undefined,
    table,
  };
}

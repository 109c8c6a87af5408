import { describeValue, optionError } from '@plantstore/core/adapter';
/** The name the store uses when none is given. */
export const DEFAULT_TABLE = 'plants';

/** Which factory of the package checks an option: error messages start with its name. */
export type Factory = 'postgresStore' | 'postgresReplayStore';

// PostgreSQL truncates identifiers to NAMEDATALEN - 1 = 63 bytes; refuse rather than truncate.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;

/**
 * Checks a table name, optionally schema-qualified (`plants`, `app.plants`), and quotes each part
 * once, so the name can be spliced into SQL text safely. Parts are quoted as given, so they keep
 * their case: `Plants` names the table `"Plants"`, not `plants`.
 *
 * @param table - the name the caller passed
 * @param factory - who is checking, for the message
 * @returns the quoted name, such as `"app"."plants"`
 * @throws TypeError when `table` is not one or two plain identifiers joined by a dot
 * @example
 * ```ts
 * quoteTableName('app.plants'); // '"app"."plants"'
 * ```
 */
export function quoteTableName(table: unknown, factory: Factory = 'postgresStore'): string {
  const parts = typeof table === 'string' ? table.split('.') : [];
  if (parts.length < 1 || parts.length > 2 || !parts.every((part) => IDENTIFIER.test(part))) {
    optionError(
      factory,
      'table',
      'must be a table name, optionally schema-qualified, of letters, digits, _ and $ ' +
        '(at most 63 each, not starting with a digit)',
      describeValue(table),
    );
  }
  return parts.map((part) => `"${part}"`).join('.');
}

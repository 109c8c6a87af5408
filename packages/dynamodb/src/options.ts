import type { Factory } from './client';

// DynamoDB's rule for table names: 3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'.
const TABLE_NAME = /^[\w.-]{3,255}$/;

/**
 * The options of a factory call, refused as a `TypeError` when they are not an object or name an
 * option the factory does not know (a misspelt `tabel` would otherwise be silently ignored).
 */
export function knownOptions<T extends object>(
  factory: Factory,
  options: unknown,
  known: readonly string[],
): T {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `${factory}: expected { ${known.join(', ')} }; received ${String(options)}.`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`${factory}: no option \`${key}\`; it knows ${known.join(', ')}.`);
    }
  }
  return options as T;
}

/**
 * The table option, or `fallback` when it is absent.
 *
 * @throws TypeError when it is not a DynamoDB table name
 */
export function tableOption(factory: Factory, table: unknown, fallback: string): string {
  if (table === undefined) return fallback;
  if (typeof table === 'string' && TABLE_NAME.test(table)) return table;
  throw new TypeError(
    `${factory}: \`table\` must be a DynamoDB table name (3 to 255 of a-z A-Z 0-9 _ - .); ` +
      `received ${typeof table === 'string' ? JSON.stringify(table) : typeof table}.`,
  );
}

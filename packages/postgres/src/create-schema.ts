import type { SqlRunner } from './runner';

// What PostgreSQL answers a CREATE … IF NOT EXISTS that loses a race with the same statement in
// another session: it checked for the relation before the other committed, then met the other's
// catalogue rows. 23505 is a duplicate row in pg_type or pg_class, 42P07 the relation, 42710 its
// row type ("type … already exists"), depending on the moment the other committed.
const SCHEMA_RACE_CODES = new Set(['23505', '42P07', '42710']);

/**
 * Runs schema statements in order, each once more when it lost a race with another instance
 * creating the same object. That error comes only after the other session committed, so the second
 * run finds the object and does nothing.
 *
 * @param runner - the store's runner
 * @param statements - idempotent `CREATE … IF NOT EXISTS` statements
 * @throws the driver's error when a statement fails for any other reason, or fails twice
 */
export async function createSchema(
  runner: SqlRunner,
  statements: readonly string[],
): Promise<void> {
  for (const statement of statements) {
    try {
      await runner.exec(statement);
    } catch (error) {
      if (!SCHEMA_RACE_CODES.has(sqlStateOf(error))) throw error;
      await runner.exec(statement);
    }
  }
}

/** The SQLSTATE of a driver error, or `''` for anything without one. */
export function sqlStateOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

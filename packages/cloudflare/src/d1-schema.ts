import { EVENTS_SCHEMA } from './d1-outbox-sql';

// The plants table of d1Store on one line: D1's `exec()` runs each line as a statement of its own.
const PLANTS =
  "CREATE TABLE IF NOT EXISTS plants (tenant TEXT NOT NULL DEFAULT '', id INTEGER NOT NULL, " +
  'name TEXT NOT NULL, tag TEXT, created_by TEXT, client_id TEXT, created_at TEXT, token_id TEXT, ' +
  'PRIMARY KEY (tenant, id))';

/** The statements of `schema.sql`, in order: the plants table, then the outbox's. */
export const SCHEMA_STATEMENTS: readonly string[] = [PLANTS, ...EVENTS_SCHEMA];

/**
 * The statements of `schema.sql`: the tables `d1Store` writes to, for a D1 migration. Plants are
 * keyed by `(tenant, id)` (`tenant` is `''` when the service keeps one id space); beside each are
 * the token's `sub`, client and `jti`, and the core's clock at the create as ISO 8601 text. Then
 * the outbox of the `events` option: `plants_events` (one row per event, in write order) and
 * `plants_events_lease`.
 *
 * @returns `CREATE TABLE IF NOT EXISTS plants …` and the outbox's statements, one a line
 * @example
 * ```ts
 * await env.DB.exec(schemaSql());
 * ```
 */
export function schemaSql(): string {
  return SCHEMA_STATEMENTS.join('\n');
}

/** The columns of the table as `PRAGMA table_info(plants)` lists them, for `checkTable`. */
export const TABLE_INFO = 'PRAGMA table_info(plants)';

const COLUMNS = [
  'tenant',
  'id',
  'name',
  'tag',
  'created_by',
  'client_id',
  'created_at',
  'token_id',
] as const;

/**
 * Refuses a `plants` table the store cannot keep plants in: the table of the schema before plants
 * kept their tenant and owner (its fix is the migration, so the error names it), or one without
 * every column or keyed otherwise than by `(tenant, id)`.
 *
 * @param rows - what `PRAGMA table_info(plants)` answered: one row per column, `pk` its place in
 *   the primary key (0 when it is not in it)
 * @throws Error saying what is wrong and what to do
 */
export function checkTable(rows: readonly unknown[]): void {
  const found = new Map<unknown, unknown>();
  for (const row of rows) {
    const { name, pk } = (row ?? {}) as { name?: unknown; pk?: unknown };
    found.set(name, pk);
  }
  const missing = COLUMNS.filter((column) => !found.has(column));
  if (found.has('id') && !found.has('tenant')) {
    throw new Error(
      `d1Store: the table plants is of the schema before plants kept their tenant and owner (no ` +
        `${missing.join(', ')}). Run the migration of docs/guides/upgrading.md ("Plants keep ` +
        'their owner and tenant") on it, then start again.',
    );
  }
  const problems = missing.map((column) => `column ${column} is missing`);
  if (Number(found.get('tenant')) !== 1 || Number(found.get('id')) !== 2) {
    problems.push('the primary key is not (tenant, id)');
  }
  if (problems.length > 0) {
    throw new Error(
      `d1Store: the table plants exists but cannot keep plants: ${problems.join('; ')}. Alter it ` +
        'to the table of schemaSql(), or drop it if it holds nothing.',
    );
  }
}

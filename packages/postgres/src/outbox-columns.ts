import type { Column } from './check-columns';

// What the outbox reads and writes: each column and the base types that keep it (`text` is text or
// varchar). `body` above all: the event's JSON is handed on byte for byte, which `json` (spacing) and
// `jsonb` (key order) do not keep.
const EXPECTED = new Map(
  (
    'seq bigint; event_id text; tenant text; plant_id bigint; type text; ' +
    'time timestamp with time zone; body text; attempts integer|bigint; ' +
    'next_attempt_at timestamp with time zone; last_error text; dead boolean'
  )
    .split('; ')
    .map((spec) => {
      const [name = '', ...type] = spec.split(' ');
      const types = type.join(' ').split('|');
      return [name, types[0] === 'text' ? ['text', 'character varying'] : types] as const;
    }),
);

/**
 * Checks that an events table the store did not create (an earlier one, or your migration's) has
 * every column the outbox uses, of a type that keeps it exactly.
 *
 * @param columns - what `readColumns` read of the events table; `undefined` is not checked
 * @param table - the events table, quoted, for the message
 * @throws Error naming each column that does not fit
 */
export function checkOutboxColumns(columns: readonly Column[] | undefined, table: string): void {
  if (columns === undefined) return;
  const found = new Map(columns.map((column) => [column.column, column]));
  const problems = [...EXPECTED].flatMap(([name, types]) => {
    const column = found.get(name);
    if (column === undefined) return [`column ${name} is missing`];
    return types.includes(column.base)
      ? []
      : [`column ${name} is ${column.declared}, not ${types[0]}`];
  });
  if (problems.length > 0) {
    throw new Error(
      `The outbox table ${table} exists but cannot keep events exactly: ${problems.join('; ')}. ` +
        'Alter it to the columns of schemaSql() or drop it while it holds no event.',
    );
  }
}

import type { AttemptOutcome } from '../client/until-settled';

/** The plant a request meant to create. */
export interface SentPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string | undefined;
}

/** One logical request of a scenario, after its client retried what invariant 4 allows. */
export interface Exchange {
  readonly plant: SentPlant;
  /** The final outcome; `undefined` when the request was never answered (cut off by the end of a run). */
  readonly final: AttemptOutcome | undefined;
  /** The final answer's body. */
  readonly body?: string | undefined;
  /**
   * The request is one the contract refuses (a 4xx other than 409): it must leave no trace. Its
   * plant's id is used by no accepted request.
   */
  readonly refused?: boolean;
  /** Final statuses that are right for it; default 200 and 409. */
  readonly expected?: readonly number[];
}

/** A row as PostgreSQL holds it, the id read back as text. */
export interface StoredRow {
  readonly id: string;
  readonly name: string;
  readonly tag: string | null;
}

/** The outcome of one invariant: how many exchanges it looked at, and what broke it. */
export interface InvariantResult {
  readonly invariant: string;
  readonly checked: number;
  readonly violations: readonly string[];
}

const MAX_LISTED = 10;

function same(row: StoredRow | undefined, plant: SentPlant): boolean {
  return row !== undefined && row.name === plant.name && (row.tag ?? undefined) === plant.tag;
}

function answerOf(plant: SentPlant): string {
  return plant.tag === undefined
    ? JSON.stringify({ name: plant.name })
    : JSON.stringify({ name: plant.name, tag: plant.tag });
}

/**
 * Checks the "nothing lost" invariants of issue 7 against the rows read back from PostgreSQL:
 * 1. every 200 is committed and equal to what was sent (exact id, exact strings), and says so;
 * 2. no 200 for a body that conflicts with the stored one (every 409 differs from the row);
 * 3. a refused request leaves no trace;
 * 4. every request converged to a right final answer (no 5xx, time-out or drop left after retries);
 * and no stored row that no client was told about with a 200.
 *
 * @param exchanges - every logical request of the scenario
 * @param rows - the table, by `id::text`
 * @returns one result per invariant; all hold when every `violations` is empty
 */
export function checkNothingLost(
  exchanges: readonly Exchange[],
  rows: ReadonlyMap<string, StoredRow>,
): InvariantResult[] {
  const broken = {
    committed: [] as string[],
    conflict: [] as string[],
    trace: [] as string[],
    converged: [] as string[],
    acknowledged: [] as string[],
  };
  const counts = { committed: 0, conflict: 0, trace: 0, converged: 0 };
  const accepted = new Set<string>();
  const acknowledged = new Set<string>();
  for (const { plant, refused } of exchanges) if (refused !== true) accepted.add(String(plant.id));
  for (const exchange of exchanges) {
    const { plant, final } = exchange;
    const id = String(plant.id);
    const row = rows.get(id);
    // A refused request, answered or cut off, must leave no row (unless an accepted one made it).
    if (exchange.refused === true) {
      counts.trace += 1;
      if (row !== undefined && !accepted.has(id)) {
        broken.trace.push(`id ${id}: refused (${final ?? 'no answer'}) but stored`);
      }
    }
    if (final === undefined) continue;
    counts.converged += 1;
    const expected = exchange.expected ?? [200, 409];
    if (typeof final !== 'number' || !expected.includes(final)) {
      broken.converged.push(`id ${id}: ended with ${final}, expected ${expected.join('/')}`);
    }
    if (final === 200) {
      counts.committed += 1;
      if (!same(row, plant)) {
        broken.committed.push(`id ${id}: 200 but the row is ${JSON.stringify(row ?? null)}`);
      } else acknowledged.add(id);
      if (exchange.body !== undefined && exchange.body !== answerOf(plant)) {
        broken.committed.push(`id ${id}: 200 answered ${exchange.body}`);
      }
    } else if (final === 409) {
      counts.conflict += 1;
      if (row === undefined || same(row, plant)) {
        broken.conflict.push(`id ${id}: 409 but the row is ${JSON.stringify(row ?? null)}`);
      }
    }
  }
  for (const id of rows.keys()) {
    if (!acknowledged.has(id))
      broken.acknowledged.push(`id ${id}: stored, but no client got a 200`);
  }
  const result = (invariant: string, checked: number, violations: string[]): InvariantResult => ({
    invariant,
    checked,
    violations:
      violations.length > MAX_LISTED
        ? [...violations.slice(0, MAX_LISTED), `… and ${violations.length - MAX_LISTED} more`]
        : violations,
  });
  return [
    result('every 200 is committed and equal to what was sent', counts.committed, broken.committed),
    result('no 200 for a conflicting body (every 409 differs)', counts.conflict, broken.conflict),
    result('a refused request leaves no trace', counts.trace, broken.trace),
    result('every request converged to a right answer', counts.converged, broken.converged),
    result('every stored row was acknowledged by a 200', rows.size, broken.acknowledged),
  ];
}

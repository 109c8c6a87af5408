import type pg from 'pg';
import { expect } from 'vitest';
import { checkNothingLost, type Exchange } from '../../src/check/nothing-lost';
import { readRows } from '../../src/check/plant-table';

/**
 * Reads the table back and expects every "nothing lost" invariant to hold for these exchanges.
 *
 * @param pool - the scenario's own Pool
 * @param table - the table the hosts wrote to; it holds only this scenario's rows
 * @param exchanges - every request of the scenario with its final answer
 */
export async function expectNothingLost(
  pool: pg.Pool,
  table: string,
  exchanges: readonly Exchange[],
): Promise<void> {
  const results = checkNothingLost(exchanges, await readRows(pool, table));
  expect(results.flatMap((result) => result.violations)).toEqual([]);
}

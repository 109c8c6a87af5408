import { serviceUrl } from '@plantstore/core/testing';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { checkNothingLost, type Exchange } from '../../src/check/nothing-lost';
import { readRows } from '../../src/check/plant-table';

/**
 * The PostgreSQL server of a fault scenario: `DATABASE_URL`, or `undefined` (the scenario skipped
 * with a message, or failing under `PLANTSTORE_REQUIRE_SERVICES=1`).
 *
 * @param scenario - the scenario's name, for the messages
 * @returns the server's URL
 */
export function scenarioDatabase(scenario: string): string | undefined {
  return serviceUrl({ it }, 'DATABASE_URL', scenario, 'postgres://postgres@127.0.0.1:5432/test');
}

/**
 * Whether host processes give every pooled connection a listener of their own. The store attaches
 * its connection listener as pg-pool hands a connection out, so the hosts run without one (the fix
 * of docs/reference/reliability.md, "Found and fixed"); `PLANTSTORE_PG_WORKAROUND=1` adds one anyway.
 */
export const GUARD_CONNECTIONS = process.env['PLANTSTORE_PG_WORKAROUND'] === '1';

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

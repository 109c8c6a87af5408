import { randomBytes } from 'node:crypto';
import { createPlantService, type PlantStore, type Principal } from '@plantstore/core';
import { serviceUrl } from '@plantstore/core/testing';
import mysql from 'mysql2';
import mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, it } from 'vitest';

/**
 * `MYSQL_URL` for a suite of this package, or `undefined` to skip it (a failing test instead under
 * `PLANTSTORE_REQUIRE_SERVICES=1`, where it defaults to the machine's MariaDB).
 */
export function mysqlUrlFor(suite: string): string | undefined {
  const example = 'mysql://root@127.0.0.1:3306/test';
  if (process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1') process.env['MYSQL_URL'] ??= example;
  return serviceUrl({ it }, 'MYSQL_URL', suite, example);
}

/** A table name no other test file or run uses. */
export function uniqueTable(purpose: string): string {
  return `plantstore_${purpose}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** The database of a test file: a promise Pool, and fresh tables dropped after the file. */
export interface FileDatabase {
  /** The file's own Pool, open during its tests. */
  readonly pool: mysqlPromise.Pool;
  /** A table name of its own for `purpose`, dropped once the file's tests are over. */
  newTable(purpose: string): string;
}

/**
 * Opens a promise Pool on `url` before the calling file's tests and, after them, drops every table
 * named by `newTable` and ends the Pool.
 */
export function databaseOfThisFile(url: string | undefined): FileDatabase {
  const tables: string[] = [];
  let pool: mysqlPromise.Pool | undefined;
  beforeAll(() => {
    pool = promisePool(url ?? '');
  });
  afterAll(async () => {
    if (pool === undefined) return;
    for (const table of tables.splice(0)) {
      // The plants table and the outbox's two, which ensureSchema() creates beside it.
      const all = [table, `${table}_events`, `${table}_events_lease`];
      await pool.query(`DROP TABLE IF EXISTS ${all.map((name) => `\`${name}\``).join(', ')}`);
    }
    await pool.end();
  });
  return {
    get pool() {
      if (pool === undefined) throw new Error('the Pool opens before the first test');
      return pool;
    },
    newTable(purpose) {
      const table = uniqueTable(purpose);
      tables.push(table);
      return table;
    },
  };
}

/** A promise Pool on `url`, with mysql2's defaults. */
export function promisePool(
  url: string,
  options: mysqlPromise.PoolOptions = {},
): mysqlPromise.Pool {
  return mysqlPromise.createPool({ uri: url, ...options });
}

/** A callback Pool on `url`. */
export function callbackPool(url: string, options: mysql.PoolOptions = {}): mysql.Pool {
  return mysql.createPool({ uri: url, ...options });
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One answer of the route: its status, `Retry-After` and body. */
export interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: string;
}

/** A plant as the tests send it. */
export interface TestPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string | undefined;
}

/**
 * A plant service on `store` (any token `good` is accepted), with a helper that posts a plant and
 * resolves to the answer, and the error codes `onError` saw.
 */
export function plantService(store: PlantStore, storeTimeout: number) {
  const errors: string[] = [];
  const gardener: Principal = { subject: 'gardener', scopes: [], claims: {} };
  const auth = {
    verify: (token: string) => Promise.resolve(token === 'good' ? gardener : undefined),
  };
  const onError = (error: { readonly code: string }): void => void errors.push(error.code);
  const service = createPlantService({ store, storeTimeout, retryAfter: 1, auth, onError });
  const post = async (plant: TestPlant): Promise<Answer> => {
    const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
    const response = await service.fetch(
      new Request('http://host/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body: `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`,
      }),
    );
    return {
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      body: await response.text(),
    };
  };
  return { errors, post };
}

import { randomBytes } from 'node:crypto';
import { createPlantService, type PlantStore } from '@plantstore/core';
import { serviceUrl } from '@plantstore/core/testing';
import mysql from 'mysql2';
import mysqlPromise from 'mysql2/promise';
import { it } from 'vitest';

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

/** Polls `check` until it is true, failing after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(20);
  }
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
  const service = createPlantService({
    store,
    storeTimeout,
    retryAfter: 1,
    auth: {
      verify: (token) =>
        Promise.resolve(
          token === 'good' ? { subject: 'gardener', scopes: [], claims: {} } : undefined,
        ),
    },
    onError: (error) => {
      errors.push(error.code);
    },
  });
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

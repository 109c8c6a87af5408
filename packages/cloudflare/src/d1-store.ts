import {
  cancellation,
  ServiceUnavailableError,
  type InsertResult,
  type NewPlant,
  type PlantStore,
} from '@plantstore/core';
import { mapD1Error } from './d1-errors';
import type { D1DatabaseLike, D1ResultLike } from './d1-types';

/** The statement of `schema.sql`: the table {@link d1Store} writes to. */
export const D1_SCHEMA =
  'CREATE TABLE IF NOT EXISTS plants (id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT, created_by TEXT)';

// The id travels as decimal text both ways and SQLite converts it exactly: CAST(text AS INTEGER)
// reads all 64 bits, and CAST(id AS TEXT) writes them all, where a D1 Number would keep 53.
const INSERT =
  'INSERT INTO plants (id, name, tag, created_by) VALUES (CAST(?1 AS INTEGER), ?2, ?3, ?4) ' +
  'ON CONFLICT (id) DO NOTHING';
const SELECT =
  'SELECT CAST(id AS TEXT) AS id, name, tag FROM plants WHERE id = CAST(?1 AS INTEGER)';
const CREATED: InsertResult = Object.freeze({ created: true });

/** A {@link PlantStore} on Cloudflare D1, with its schema step. */
export interface D1Store extends PlantStore {
  /**
   * Creates the `plants` table if it does not exist (the statement of `schema.sql`). Idempotent. Run
   * it once, or apply `schema.sql` as a D1 migration instead (docs/cloudflare.md).
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when D1 does not answer
   */
  ensureSchema(): Promise<void>;
}

/**
 * A {@link PlantStore} on Cloudflare D1 (SQLite). `insert` is one D1 batch, which D1 runs as one
 * transaction: `INSERT … ON CONFLICT (id) DO NOTHING`, then the row under the id; the first tells
 * whether this call created it, the second is the plant stored first when it did not. So of
 * concurrent inserts of one id exactly one creates it, and every other reports that plant.
 *
 * Ids stay exact over the whole int64 range: they are stored as SQLite integers and cross the D1
 * API as decimal text (D1 hands integers to JavaScript as Numbers, exact only up to 2^53). A call
 * whose signal has already fired rejects and writes nothing; one aborted under way finishes its
 * batch, whole or not at all (D1 cannot cancel a statement). D1's transient failures (network,
 * overload, reset) reject with `ServiceUnavailableError('store_unavailable')` (503, `Retry-After`),
 * anything else as it is (500).
 *
 * @param db - the D1 binding (`env.DB`)
 * @returns the store
 * @throws TypeError when `db` is not a D1 database
 * @example
 * ```ts
 * export default {
 *   fetch(request: Request, env: Env) {
 *     plants ??= createPlantService({ store: d1Store(env.DB), auth: jwtBearer({ … }) });
 *     return plants.fetch(request);
 *   },
 * };
 * ```
 */
export function d1Store(db: D1DatabaseLike): D1Store {
  const candidate = db as Partial<D1DatabaseLike> | null | undefined;
  if (typeof candidate?.prepare !== 'function' || typeof candidate.batch !== 'function') {
    throw new TypeError(
      `d1Store: expected a D1 database binding (env.DB); received ${describe(db)}`,
    );
  }
  const insert = db.prepare(INSERT);
  const select = db.prepare(SELECT);
  return {
    async insert(plant, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) throw cancelled.reason;
      const id = plant.id.toString();
      const by = context.principal.subject ?? null;
      let results: readonly D1ResultLike[];
      try {
        results = await db.batch([
          insert.bind(id, plant.name, plant.tag ?? null, by),
          select.bind(id),
        ]);
      } catch (error) {
        throw mapD1Error(error);
      }
      if (results[0]?.meta?.changes === 1) return CREATED;
      return { created: false, existing: plantOf(results[1]?.results?.[0], plant.id) };
    },
    async ensureSchema() {
      try {
        await db.batch([db.prepare(D1_SCHEMA)]);
      } catch (error) {
        throw mapD1Error(error);
      }
    },
    async ready() {
      await db
        .batch([db.prepare('SELECT 1')])
        .catch((error: unknown) => Promise.reject(unavailable(error)));
    },
  };
}

// The row of the id asked for, read back as `SELECT` names its columns; anything else is a
// table that is not the store's (500).
function plantOf(row: unknown, expectedId: bigint): NewPlant {
  const { id, name, tag = null } = (row ?? {}) as Record<string, unknown>;
  const sameId = typeof id === 'string' && BigInt(id) === expectedId;
  if (sameId && typeof name === 'string' && tag === null) {
    return Object.freeze({ id: expectedId, name });
  }
  if (sameId && typeof name === 'string' && typeof tag === 'string') {
    return Object.freeze({ id: expectedId, name, tag });
  }
  throw new Error('d1Store: the stored row does not have the shape of a plant.');
}

function unavailable(error: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError('store_unavailable', 'The D1 database did not answer.', {
    cause: error,
  });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return `an object without prepare() and batch()`;
}

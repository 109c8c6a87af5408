import {
  cancellation,
  ServiceUnavailableError,
  type InsertResult,
  type NewPlant,
  type PlantStore,
  type StoreContext,
} from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import { abortError } from './abortable';
import { checkColumns, readColumns } from './check-columns';
import { classifyClient, type PostgresClient } from './clients';
import { createSchema } from './create-schema';
import { mapStoreError } from './map-error';
import { readyProbe } from './ready-probe';
import { schemaSql } from './schema';
import { sqlRunner } from './sql-runner';
import { DEFAULT_TABLE, quoteTableName } from './table-name';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions {
  /**
   * A `pg` Pool (the choice for servers), a connected `pg` Client, or a PGlite instance (embedded).
   * The store uses it and never ends it: the caller created it, and the caller closes it.
   */
  readonly client: PostgresClient;
  /** The table, optionally schema-qualified (`app.plants`). Quoted as given. Default `plants`. */
  readonly table?: string | undefined;
}

/** A {@link PlantStore} on PostgreSQL or PGlite, with its schema step. */
export interface PostgresStore extends PlantStore {
  /** The table as the store's SQL names it, quoted: `"plants"`, `"app"."plants"`. */
  readonly table: string;
  /**
   * Creates the table if it does not exist (`CREATE TABLE IF NOT EXISTS`, the statement of
   * `schema.sql`), then checks that the table can keep plants exactly. Idempotent, and safe when
   * several instances start at once. Call it at start-up, or run `schema.sql` through your own
   * migrations instead.
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when the database cannot be reached
   * @throws Error naming each column of an existing table that cannot keep plants (an id not
   *   `bigint` or without a unique key of its own, text not `text`, a `NOT NULL` tag, …)
   */
  ensureSchema(): Promise<void>;
  /**
   * Checks the database answers (`SELECT 1`; PGlite is awaited until it is ready first).
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when it does not
   */
  ready(): Promise<void>;
  /**
   * Refuses new inserts (503 `store_unavailable`) and waits for the ones under way, and for the
   * clean-up of aborted ones, to finish. It closes nothing the caller owns: end your Pool
   * (`await pool.end()`) or PGlite (`await db.close()`) after it.
   */
  close(): Promise<void>;
}

const OPTION_NAMES: ReadonlySet<string> = new Set(['client', 'table']);
const CREATED: InsertResult = Object.freeze({ created: true });

/**
 * A {@link PlantStore} on PostgreSQL: a `pg` Pool for servers (and Postgres-wire distributed
 * engines), or PGlite for an embedded, durable default. The caller injects the client; the store
 * opens no connection of its own. SQL is parameterised; the table name is checked and quoted once,
 * here. Ids travel as the text of the exact int64 in both directions, never through a float.
 *
 * `insert` is one `INSERT … ON CONFLICT (id) DO NOTHING RETURNING id`; when it inserts nothing, a
 * second statement reads the existing row (each statement in its own transaction, so the read sees
 * a row committed by a concurrent insert). An aborted insert rejects at once and writes nothing: on
 * a Pool or Client its running statement is cancelled with a CancelRequest on a socket of its own,
 * and on PGlite a statement still waiting for its turn is dropped when the turn comes (only one that
 * finished meanwhile keeps its row, whole). Connection loss, pool exhaustion and server shutdown
 * reject with `ServiceUnavailableError('store_unavailable')` (503); a server-side statement or lock
 * time-out with `'store_timeout'` (503); anything else as it is (500).
 *
 * Durability: the store never relaxes it (no `synchronous_commit = off`). Create PGlite with a data
 * directory and without `relaxedDurability`, or an acknowledged plant may be lost on a crash.
 *
 * @param options - the client and, optionally, the table
 * @returns the store, with `ensureSchema()` for start-up
 * @throws TypeError when `client` is not a Pool, Client or PGlite, or `table` is not an identifier
 * @example
 * ```ts
 * import pg from 'pg';
 * import { PGlite } from '@electric-sql/pglite';
 *
 * const store = process.env.DATABASE_URL
 *   ? postgresStore({ client: new pg.Pool({ connectionString: process.env.DATABASE_URL }) })
 *   : postgresStore({ client: new PGlite('.data/plants') });
 * await store.ensureSchema();
 * const service = createPlantService({ store, auth: jwtBearer({ jwksUri, issuer, audience }) });
 * ```
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  checkKnownOptions('postgresStore', options, OPTION_NAMES);
  const tableName = options.table ?? DEFAULT_TABLE;
  const table = quoteTableName(tableName);
  const target = classifyClient(options.client);
  const { kind } = target;
  const runner = sqlRunner(target);
  const insertSql =
    `INSERT INTO ${table} (id, name, tag, created_by) VALUES ($1::bigint, $2, $3, $4) ` +
    'ON CONFLICT (id) DO NOTHING RETURNING id::text AS id';
  const selectSql = `SELECT id::text AS id, name, tag FROM ${table} WHERE id = $1::bigint`;

  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const attempt = async (plant: NewPlant, context: StoreContext): Promise<InsertResult> => {
    const cancelled = cancellation(context);
    const id = plant.id.toString();
    const values = [id, plant.name, plant.tag ?? null, context.principal.subject ?? null];
    try {
      // Write-once rows never vanish; if one did between the two statements, try once more.
      for (let round = 0; round < 2; round += 1) {
        const inserted = await runner.write(insertSql, values, cancelled);
        if (inserted.length > 0) return CREATED;
        const [row] = await runner.read(selectSql, [id], cancelled);
        if (row !== undefined) return { created: false, existing: plantOf(row, plant.id) };
      }
    } catch (error) {
      throw cancelled.aborted ? abortError(cancelled) : mapStoreError(error);
    }
    throw new Error(`postgresStore: id ${id} was neither inserted nor found, twice.`);
  };

  return {
    table,
    async insert(plant, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) throw abortError(cancelled);
      if (closed) throw closedError();
      const pending = attempt(plant, context);
      inFlight.add(pending);
      try {
        return await pending;
      } finally {
        inFlight.delete(pending);
      }
    },
    async ensureSchema() {
      const columns = await createSchema(runner, [schemaSql(tableName)])
        .then(() => readColumns(runner, table))
        .catch((error: unknown) => {
          throw mapStoreError(error);
        });
      checkColumns(columns, table);
    },
    async ready() {
      if (closed) throw closedError();
      await readyProbe(runner, kind, 'SELECT 1', 'store_unavailable').catch((error: unknown) => {
        throw mapStoreError(error);
      });
    },
    async close() {
      closed = true;
      await Promise.allSettled([...inFlight]);
      await runner.idle();
    },
  };
}

function plantOf(row: unknown, expectedId: bigint): NewPlant {
  const { id, name, tag } = row as { id?: unknown; name?: unknown; tag?: unknown };
  if (
    typeof id !== 'string' ||
    BigInt(id) !== expectedId ||
    typeof name !== 'string' ||
    (tag !== null && typeof tag !== 'string')
  ) {
    throw new Error('postgresStore: the stored row does not have the shape of a plant.');
  }
  const plant = Object.create(null) as { id: bigint; name: string; tag?: string };
  plant.id = expectedId;
  plant.name = name;
  if (tag !== null) plant.tag = tag;
  return Object.freeze(plant);
}

function closedError(): ServiceUnavailableError {
  return new ServiceUnavailableError('store_unavailable', 'The PostgreSQL store is closed.');
}

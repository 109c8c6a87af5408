import type { Cancellation, PlantRecord, PlantStore, StoredPlant } from '@plantstore/core';
import type { EventOutbox, OutboxEvent } from '@plantstore/core/store-kit';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  insertOrRead,
  readyTimeoutOption,
  storedPlant,
  storeGate,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { checkColumns, readColumns } from './check-columns';
import { classifyClient, type PostgresClient } from './clients';
import { createSchema, sqlStateOf } from './create-schema';
import { mapStoreError } from './map-error';
import { readyProbe } from './ready-probe';
import { postgresOutbox } from './outbox';
import { checkOutboxColumns } from './outbox-columns';
import { outboxTableNames } from './outbox-schema';
import { schemaStatements } from './schema';
import { sqlRunner } from './sql-runner';
import { DEFAULT_TABLE, quoteTableName } from './table-name';

/** Options of {@link postgresStore}. */
export interface PostgresStoreOptions extends StoreTimeoutOptions {
  /**
   * A `pg` Pool (the choice for servers), a connected `pg` Client, or a PGlite instance (embedded).
   * The store uses it and never ends it: the caller created it, and the caller closes it.
   */
  readonly client: PostgresClient;
  /** The table, optionally schema-qualified (`app.plants`). Quoted as given. Default `plants`. */
  readonly table?: string | undefined;
}

/** A {@link PlantStore} on PostgreSQL or PGlite, with its schema step. */
export interface PostgresStore extends Omit<PlantStore, 'ready' | 'close'>, StoreLifecycle {
  /** The table as the store's SQL names it, quoted: `"plants"`, `"app"."plants"`. */
  readonly table: string;
  /**
   * The outbox of the `events` option (`<table>_events`, `<table>_events_lease`); `undefined` for a
   * table name over 50 characters, which the outbox's names would not fit.
   */
  readonly outbox: EventOutbox | undefined;
  /**
   * Creates the tables if they do not exist (`CREATE TABLE IF NOT EXISTS`, the statements of
   * `schema.sql`: the plants table and the outbox's two), then checks that they can keep plants
   * and events exactly. Idempotent, and safe when several instances start at once. Call it at
   * start-up, or run `schema.sql` through your own migrations instead.
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when the database cannot be reached
   * @throws Error naming each column of an existing table that cannot keep plants (an id not
   *   `bigint` or without a unique key of its own, text not `text`, a `NOT NULL` tag, …)
   */
  ensureSchema(): Promise<void>;
  /**
   * Checks the database answers (`SELECT 1`; PGlite is awaited until it is ready first), within
   * `readyTimeout` (default 5 s).
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when it does not, or the store is closed
   */
  ready(): Promise<void>;
  /**
   * Refuses new inserts (503 `store_unavailable`) and waits for the ones under way, and for the
   * clean-up of aborted ones, to finish (at most 10 s); a second call settles with the first. It
   * closes nothing the caller owns: end your Pool
   * (`await pool.end()`) or PGlite (`await db.close()`) after it.
   */
  close(): Promise<void>;
}

const UNDEFINED_TABLE = '42P01';
const OPTION_NAMES: ReadonlySet<string> = new Set(['client', 'table', 'readyTimeout']);

/**
 * A {@link PlantStore} on PostgreSQL: a `pg` Pool for servers (and Postgres-wire distributed
 * engines), or PGlite for an embedded, durable default. The caller injects the client; the store
 * opens no connection of its own. SQL is parameterised; the table name is checked and quoted once,
 * here. Ids travel as the text of the exact int64 in both directions, never through a float.
 *
 * `insert` is one `INSERT … ON CONFLICT (tenant, id) DO NOTHING RETURNING id`; when it inserts nothing, a
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
    `INSERT INTO ${table} (tenant, id, name, tag, created_by, client_id, created_at, token_id) ` +
    'VALUES ($1, $2::bigint, $3, $4, $5, $6, $7::timestamptz, $8) ' +
    'ON CONFLICT (tenant, id) DO NOTHING RETURNING id::text AS id';
  const names = outboxTableNames(tableName);
  // With an event: the same insert, and the event's row made from the row it inserted, in one
  // statement: both or neither commit, and a replay or a conflict (no row) writes no event.
  const insertWithEventSql =
    names &&
    `WITH plant AS (${insertSql.replace(/::text AS id$/, '')}), ` +
      `event AS (INSERT INTO ${names.events} ` +
      '(event_id, tenant, plant_id, type, time, body, next_attempt_at) ' +
      'SELECT $9, $10, id, $11, $12::timestamptz, $13, $12::timestamptz FROM plant) ' +
      'SELECT id::text AS id FROM plant';
  // Single-word aliases, so that a client's column-name transform (postgres.js `transform: camel`)
  // leaves them as they are; the time as ISO 8601 text, the same whatever the driver's date parser.
  const selectSql =
    'SELECT id::text AS id, name, tag, created_by AS creator, client_id AS client, ' +
    `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created, ` +
    `token_id AS token FROM ${table} WHERE tenant = $1 AND id = $2::bigint`;

  const gate = storeGate({
    code: 'store_unavailable',
    what: 'The PostgreSQL store',
    readyTimeout: readyTimeoutOption('postgresStore', options.readyTimeout),
    mapError: (error) => mapStoreError(error),
  });

  const write = async (
    values: unknown[],
    event: OutboxEvent | undefined,
    cancelled: Cancellation,
  ) => {
    if (event === undefined) return runner.write(insertSql, values, cancelled);
    if (insertWithEventSql === undefined) {
      throw new Error(
        `postgresStore: the table name of ${table} is too long for an outbox (at most 50 characters); name a shorter one to turn events on.`,
      );
    }
    const time = event.time.toISOString();
    const eventValues = [event.id, event.tenant, event.type, time, event.body];
    return runner
      .write(insertWithEventSql, [...values, ...eventValues], cancelled)
      .catch((error: unknown) => {
        const message = String((error as { message?: unknown } | null)?.message);
        if (sqlStateOf(error) !== UNDEFINED_TABLE || !message.includes('_events" does not'))
          throw error;
        throw new Error(
          `postgresStore: the outbox table ${names?.events} does not exist. Events are on: run ` +
            'store.ensureSchema() at start-up (or the statements of schema.sql in your migrations).',
          { cause: error },
        );
      });
  };

  const insert = (plant: PlantRecord, event: OutboxEvent | undefined, cancelled: Cancellation) => {
    const id = plant.id.toString();
    const { tenant } = plant;
    const values = [
      tenant,
      id,
      plant.name,
      plant.tag ?? null,
      plant.createdBy ?? null,
      plant.clientId ?? null,
      plant.createdAt.toISOString(),
      plant.tokenId ?? null,
    ];
    return insertOrRead('postgresStore', plant.id, {
      insert: async () => (await write(values, event, cancelled)).length > 0,
      read: async () => {
        const [row] = await runner.read(selectSql, [tenant, id], cancelled);
        return row === undefined ? undefined : plantOf(row, plant.id, tenant);
      },
    });
  };

  return {
    table,
    outbox: names && postgresOutbox(runner, gate, names),
    insert: (plant, context) =>
      gate.call(context, (cancelled) => insert(plant, context.event, cancelled)),
    async ensureSchema() {
      const [columns, outboxColumns] = await createSchema(runner, schemaStatements(tableName))
        // One after the other: a pool of one connection has no second to lend.
        .then(async () => {
          const plants = await readColumns(runner, table);
          return [plants, names && (await readColumns(runner, names.events))] as const;
        })
        .catch((error: unknown) => {
          throw mapStoreError(error);
        });
      checkColumns(columns, table);
      if (names) checkOutboxColumns(outboxColumns, names.events);
    },
    ready: () => gate.ready(readyProbe(runner, kind, 'SELECT 1')),
    close: () => gate.close(() => runner.idle()),
  };
}

/** The row's single-word aliases as the kit's stored fields; the tenant is the one asked for. */
function plantOf(row: unknown, expectedId: bigint, tenant: string): StoredPlant {
  const { id, name, tag, creator, client, created, token } = row as Record<string, unknown>;
  const fields = { id, name, tag, tenant, createdBy: creator, clientId: client, tokenId: token };
  return storedPlant({ ...fields, createdAt: created }, expectedId, 'postgresStore');
}

import {
  cancellation,
  ServiceUnavailableError,
  type InsertResult,
  type NewPlant,
  type PlantStore,
  type StoreContext,
} from '@plantstore/core';
import { abortError } from './abort-error';
import { checkColumns, columnsSql } from './check-columns';
import { classifyClient, type MysqlClient } from './clients';
import { mapStoreError } from './map-error';
import { DEFAULT_TABLE, mysqlSchemaSql } from './schema';
import { integerLiteral, textOf, utf8Literal } from './sql-text';
import { statementRunner } from './statement-runner';
import { tableName } from './table-name';

/** Options of {@link mysqlStore}. */
export interface MysqlStoreOptions {
  /**
   * A mysql2 Pool (the choice for servers), a PoolConnection or a Connection, of the callback or
   * the promise API. The store uses it and never ends it: the caller created it, and closes it.
   */
  readonly client: MysqlClient;
  /** The table, optionally database-qualified (`app.plants`). Quoted as given. Default `plants`. */
  readonly table?: string | undefined;
}

/** A {@link PlantStore} on MySQL or MariaDB, with its schema step. */
export interface MysqlStore extends PlantStore {
  /** The table as the store's SQL names it, quoted: `` `plants` ``. */
  readonly table: string;
  /**
   * Creates the table if it does not exist (the statement of `mysqlSchemaSql()`), then checks the
   * table can keep plants exactly: a table whose text columns are `utf8`/`utf8mb3` is refused.
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when the database cannot be reached
   * @throws Error when the table exists with columns that cannot keep a plant exactly
   */
  ensureSchema(): Promise<void>;
  /**
   * Checks the database answers (`SELECT 1`).
   *
   * @throws ServiceUnavailableError (`store_unavailable`) when it does not
   */
  ready(): Promise<void>;
  /**
   * Refuses new inserts (503 `store_unavailable`) and waits for the ones under way, and for the
   * kills of aborted ones, to finish. It closes nothing the caller owns: end your Pool after it.
   */
  close(): Promise<void>;
}

const OPTION_NAMES = new Set(['client', 'table']);
const CREATED: InsertResult = Object.freeze({ created: true });
const ER_DUP_ENTRY = 1062;

/**
 * A {@link PlantStore} on MySQL 8 or MariaDB 10.11+ through mysql2. The caller injects the client;
 * the store opens no connection of its own but the short one that kills a timed-out statement.
 *
 * `insert` is one plain `INSERT`: the primary key lets exactly one of concurrent inserts of an id
 * through, and the others fail with a duplicate key, after which a second statement reads the stored
 * row back as bytes. The core compares it with the request, so `Fern`, `fern`, `Fern ` and `Férn`
 * are four plants whatever the server's collations say. Values are written into the statement as
 * literals that mean the same under every connection setting: the id as its exact decimal, strings
 * as their UTF-8 bytes labelled `utf8mb4`.
 *
 * An aborted insert rejects at once and writes nothing: a statement still waiting for a connection
 * is never sent, and a running one is ended on the server with `KILL QUERY` (InnoDB rolls it back).
 * Connection loss, a full pool (`waitForConnections: false` or `queueLimit`), server shutdown,
 * deadlocks and read-only servers reject with `ServiceUnavailableError('store_unavailable')` (503),
 * a lock-wait time-out with `'store_timeout'` (503); anything else as it is (500).
 *
 * @param options - the client and, optionally, the table
 * @returns the store, with `ensureSchema()` for start-up
 * @throws TypeError when `client` is not a mysql2 Pool or connection, or `table` is not an identifier
 * @example
 * ```ts
 * import mysql from 'mysql2/promise';
 *
 * const store = mysqlStore({ client: mysql.createPool(process.env.MYSQL_URL) });
 * await store.ensureSchema();
 * const service = createPlantService({ store, auth: jwtBearer({ jwksUri, issuer, audience }) });
 * ```
 */
export function mysqlStore(options: MysqlStoreOptions): MysqlStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `mysqlStore: expected options { client, table? }; received ${String(options)}.`,
    );
  }
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) {
      throw new TypeError(`mysqlStore: unknown option \`${name}\` (expected client, table).`);
    }
  }
  const tableOption = options.table ?? DEFAULT_TABLE;
  const name = tableName(tableOption, 'mysqlStore');
  const runner = statementRunner(classifyClient(options.client, 'mysqlStore'));
  const table = name.quoted;

  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const attempt = async (plant: NewPlant, context: StoreContext): Promise<InsertResult> => {
    const cancelled = cancellation(context);
    const id = integerLiteral(plant.id);
    const insertSql =
      `INSERT INTO ${table} (id, name, tag, created_by) VALUES (${id}, ` +
      `${utf8Literal(plant.name)}, ${utf8Literal(plant.tag)}, ` +
      `${utf8Literal(context.principal.subject)})`;
    const selectSql =
      'SELECT CAST(id AS CHAR), CAST(name AS BINARY), CAST(tag AS BINARY) ' +
      `FROM ${table} WHERE id = ${id}`;
    try {
      // Write-once rows never vanish; if one did between the two statements, try once more.
      for (let round = 0; round < 2; round += 1) {
        try {
          await runner.run(insertSql, cancelled);
          return CREATED;
        } catch (error) {
          if ((error as { errno?: unknown }).errno !== ER_DUP_ENTRY || cancelled.aborted) {
            throw error;
          }
        }
        const rows = (await runner.run(selectSql, cancelled)) as unknown[][];
        const [row] = rows;
        if (row !== undefined) return { created: false, existing: plantOf(row, plant.id) };
      }
    } catch (error) {
      throw cancelled.aborted ? abortError(cancelled) : mapStoreError(error);
    }
    throw new Error(`mysqlStore: id ${id} was neither inserted nor found, twice.`);
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
      let columns: unknown;
      try {
        await runner.run(mysqlSchemaSql(tableOption));
        columns = await runner.run(columnsSql(name));
      } catch (error) {
        throw mapStoreError(error);
      }
      checkColumns(columns, name, { id: 'bigint', name: 'text', tag: 'text', created_by: 'text' });
    },
    async ready() {
      if (closed) throw closedError();
      await runner.run('SELECT 1').catch((error: unknown) => {
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

function plantOf(row: readonly unknown[], expectedId: bigint): NewPlant {
  const [id, name, tag] = [textOf(row[0]), textOf(row[1]), textOf(row[2])];
  if (id === undefined || BigInt(id) !== expectedId || name === undefined) {
    throw new Error('mysqlStore: the stored row does not have the shape of a plant.');
  }
  const plant = Object.create(null) as { id: bigint; name: string; tag?: string };
  plant.id = expectedId;
  plant.name = name;
  if (tag !== undefined) plant.tag = tag;
  return Object.freeze(plant);
}

function closedError(): ServiceUnavailableError {
  return new ServiceUnavailableError('store_unavailable', 'The MySQL store is closed.');
}

import {
  cancellation,
  type InsertResult,
  type NewPlant,
  type PlantStore,
  type StoreContext,
} from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import { abortError } from './abort-error';
import { checkColumns, columnsSql } from './check-columns';
import { classifyClient, type MysqlClient } from './clients';
import { mapStoreError } from './map-error';
import { readyProbe } from './ready-probe';
import { DEFAULT_TABLE, mysqlSchemaSql } from './schema';
import { integerLiteral, textOf, utf8Literal } from './sql-text';
import { statementRunner } from './statement-runner';
import { storeGate, type MysqlStoreBase } from './store-gate';
import { tableName } from './table-name';

const OPTIONS: ReadonlySet<string> = new Set(['client', 'table']);

/** Options of {@link mysqlStore}. */
export interface MysqlStoreOptions {
  /** A mysql2 Pool (the choice for servers), PoolConnection or Connection; the caller ends it. */
  readonly client: MysqlClient;
  /** The table, optionally database-qualified (`app.plants`); default `plants`. */
  readonly table?: string | undefined;
}

/**
 * A {@link PlantStore} on MySQL or MariaDB. `ensureSchema()` also refuses an existing table whose
 * text columns are not `utf8mb4` (an `Error` naming each column), and `ready()` runs `SELECT 1`.
 */
export interface MysqlStore extends Omit<PlantStore, 'ready' | 'close'>, MysqlStoreBase {}

const CREATED: InsertResult = Object.freeze({ created: true });
const ER_DUP_ENTRY = 1062;
const COLUMNS = { id: 'key', name: 'text', tag: 'text', created_by: 'subject' } as const;

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
  checkKnownOptions('mysqlStore', options, OPTIONS);
  const { client, table: tableOption = DEFAULT_TABLE } = options;
  const name = tableName(tableOption, 'mysqlStore');
  const runner = statementRunner(classifyClient(client, 'mysqlStore'));
  const gate = storeGate('store_unavailable', 'The MySQL store');
  const { quoted } = name;

  // Write-once rows never vanish; if one did between the two statements, try once more.
  const insertOrRead = async (plant: NewPlant, context: StoreContext): Promise<InsertResult> => {
    const cancelled = cancellation(context);
    const id = integerLiteral(plant.id);
    const values = [plant.name, plant.tag, context.principal.subject].map(utf8Literal).join(', ');
    for (let round = 0; round < 2; round += 1) {
      try {
        await runner.run(
          `INSERT INTO ${quoted} (id, name, tag, created_by) VALUES (${id}, ${values})`,
          cancelled,
        );
        return CREATED;
      } catch (error) {
        if (cancelled.aborted) throw abortError(cancelled);
        if ((error as { errno?: unknown }).errno !== ER_DUP_ENTRY) throw mapStoreError(error);
      }
      const rows = await runner
        .run(
          'SELECT CAST(id AS CHAR), CAST(name AS BINARY), CAST(tag AS BINARY) ' +
            `FROM ${quoted} WHERE id = ${id}`,
          cancelled,
        )
        .catch((error: unknown) => {
          throw cancelled.aborted ? abortError(cancelled) : mapStoreError(error);
        });
      const [row] = rows as unknown[][];
      if (row !== undefined) return { created: false, existing: plantOf(row, plant.id) };
    }
    throw new Error(`mysqlStore: id ${id} was neither inserted nor found, twice.`);
  };

  return {
    table: quoted,
    insert(plant, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) return Promise.reject(abortError(cancelled));
      return gate.admit(() => insertOrRead(plant, context));
    },
    async ensureSchema() {
      const columns = await runner
        .run(mysqlSchemaSql(tableOption))
        .then(() => runner.run(columnsSql(name)))
        .catch((error: unknown) => {
          throw mapStoreError(error);
        });
      checkColumns(columns, name, COLUMNS);
    },
    ready: () =>
      gate.admit(async () => {
        await readyProbe(runner, 'SELECT 1', 'store_unavailable').catch((error: unknown) => {
          throw mapStoreError(error);
        });
      }),
    async close() {
      await gate.shut();
      await runner.idle();
    },
  };
}

/** The plant of a row read back: the id checked, the name and tag decoded from their bytes. */
function plantOf(row: readonly unknown[], expectedId: bigint): NewPlant {
  const [id, name, tag] = row.map(textOf);
  if (id === undefined || BigInt(id) !== expectedId || name === undefined) {
    throw new Error('mysqlStore: the stored row does not have the shape of a plant.');
  }
  // A null-prototype record, as the core's parsed plants are: nothing inherited can pass for a field.
  const fields = tag === undefined ? { id: expectedId, name } : { id: expectedId, name, tag };
  return Object.freeze(Object.assign(Object.create(null) as NewPlant, fields));
}

import type { Cancellation, PlantRecord, PlantStore, StoredPlant } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  insertOrRead,
  readyTimeoutOption,
  storedPlant,
  storeGate,
  type EventOutbox,
  type OutboxEvent,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { checkColumns, columnsSql, type ColumnKind } from './check-columns';
import { classifyClient, type MysqlClient } from './clients';
import { errnoOf, mapStoreError } from './map-error';
import { mysqlOutbox } from './outbox';
import { checkOutboxColumns } from './outbox-columns';
import { outboxTableNames } from './outbox-schema';
import { DEFAULT_TABLE, schemaStatements } from './schema';
import { asciiLiteral, datetimeLiteral, integerLiteral, textOf, utf8Literal } from './sql-text';
import { statementRunner } from './statement-runner';
import type { MysqlStoreBase } from './store-base';
import { tableName } from './table-name';

const OPTIONS: ReadonlySet<string> = new Set(['client', 'table', 'readyTimeout']);

/** Options of {@link mysqlStore}. */
export interface MysqlStoreOptions extends StoreTimeoutOptions {
  /** A mysql2 Pool (the choice for servers), PoolConnection or Connection; the caller ends it. */
  readonly client: MysqlClient;
  /** The table, optionally database-qualified (`app.plants`); default `plants`. */
  readonly table?: string | undefined;
}

/**
 * A {@link PlantStore} on MySQL or MariaDB. `ensureSchema()` also refuses an existing table whose
 * text columns are not `utf8mb4` (an `Error` naming each column), and `ready()` runs `SELECT 1`.
 */
export interface MysqlStore extends Omit<PlantStore, 'ready' | 'close'>, MysqlStoreBase {
  /**
   * The outbox of the `events` option (`<table>_events`, `<table>_events_lease`); `undefined` for a
   * table name over 51 characters, which the outbox's names would not fit.
   */
  readonly outbox: EventOutbox | undefined;
}

const ER_DUP_ENTRY = 1062;
const ER_NO_SUCH_TABLE = 1146;
const COLUMNS: Readonly<Record<string, ColumnKind>> = {
  ...{ tenant: 'tenant', id: 'key', name: 'text', tag: 'text', created_by: 'subject' },
  ...{ client_id: 'subject', token_id: 'subject' },
};

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
  const gate = storeGate({
    code: 'store_unavailable',
    what: 'The MySQL store',
    readyTimeout: readyTimeoutOption('mysqlStore', options.readyTimeout),
    mapError: (error) => mapStoreError(error),
  });
  const { quoted } = name;
  const names = outboxTableNames(name);

  // Without an event, one autocommitted INSERT; with one, the INSERT and, only when it inserted,
  // the event's, in one transaction (rolled back on a failure or the time-out).
  const write = (sql: string, event: OutboxEvent | undefined, cancelled: Cancellation) => {
    const created = (run: (sql: string) => Promise<unknown>) =>
      run(sql).then(
        () => true,
        (error: unknown) => {
          if (cancelled.aborted || errnoOf(error) !== ER_DUP_ENTRY) throw error;
          return false;
        },
      );
    if (event === undefined) return created((text) => runner.run(text, cancelled));
    if (names === undefined) {
      throw new Error(
        `mysqlStore: the table name of ${quoted} is too long for an outbox (at most 51 ` +
          'characters); name a shorter one to turn events on.',
      );
    }
    const eventSql = eventInsertSql(names.events.quoted, event);
    return runner
      .transaction(async (run) => {
        if (!(await created(run))) return false;
        await run(eventSql);
        return true;
      }, cancelled)
      .catch((error: unknown) => {
        const missing = (error as { message?: unknown } | null)?.message;
        const outboxMissing = String(missing).includes(`${names.events.table}' doesn't exist`);
        if (errnoOf(error) !== ER_NO_SUCH_TABLE || !outboxMissing) throw error;
        throw new Error(
          `mysqlStore: the outbox table ${names.events.quoted} does not exist. Events are on: ` +
            'run store.ensureSchema() at start-up (or the statements of schema.sql in your ' +
            'migrations).',
          { cause: error },
        );
      });
  };

  const insert = (plant: PlantRecord, event: OutboxEvent | undefined, cancelled: Cancellation) => {
    const key = `${asciiLiteral(plant.tenant)}, ${integerLiteral(plant.id)}`;
    const texts = [plant.name, plant.tag, plant.createdBy, plant.clientId, plant.tokenId];
    const at = datetimeLiteral(plant.createdAt);
    const sql =
      `INSERT INTO ${quoted} (tenant, id, name, tag, created_by, client_id, token_id, ` +
      `created_at) VALUES (${key}, ${texts.map(utf8Literal).join(', ')}, ${at})`;
    return insertOrRead('mysqlStore', plant.id, {
      insert: () => write(sql, event, cancelled),
      read: async () => {
        const [row] = (await runner.run(
          'SELECT CAST(id AS CHAR), CAST(name AS BINARY), CAST(tag AS BINARY), ' +
            'CAST(created_by AS BINARY), CAST(client_id AS BINARY), CAST(token_id AS BINARY), ' +
            `CAST(created_at AS CHAR) FROM ${quoted} WHERE (tenant, id) = (${key})`,
          cancelled,
        )) as unknown[][];
        return row === undefined ? undefined : plantOf(row, plant.id, plant.tenant);
      },
    });
  };

  return {
    table: quoted,
    outbox: names && mysqlOutbox(runner, gate, names),
    insert: (plant, context) =>
      gate.call(context, (cancelled) => insert(plant, context.event, cancelled)),
    async ensureSchema() {
      const read = async () => {
        for (const statement of schemaStatements(tableOption)) await runner.run(statement);
        // One after the other: a pool of one connection that does not wait has no second to lend.
        const plants = await runner.run(columnsSql(name));
        return [plants, names && (await runner.run(columnsSql(names.events)))] as const;
      };
      const [columns, outboxColumns] = await read().catch((error: unknown) => {
        throw mapStoreError(error);
      });
      checkColumns(columns, name, COLUMNS);
      if (names) checkOutboxColumns(outboxColumns, names.events);
    },
    ready: () => gate.ready((cancelled) => runner.run('SELECT 1', cancelled)),
    close: () => gate.close(() => runner.idle()),
  };
}

/** The INSERT of an event's row, its text as `utf8mb4` bytes, its time as UTC. */
function eventInsertSql(events: string, event: OutboxEvent): string {
  const at = datetimeLiteral(event.time);
  const values = [
    utf8Literal(event.id),
    utf8Literal(event.tenant),
    integerLiteral(event.plantId),
    utf8Literal(event.type),
    at,
    utf8Literal(event.body),
    at,
  ];
  return (
    `INSERT INTO ${events} (event_id, tenant, plant_id, type, time, body, next_attempt_at) ` +
    `VALUES (${values.join(', ')})`
  );
}

/** The plant of a row read back: the text decoded from its bytes, the time read as UTC. */
function plantOf(row: readonly unknown[], expectedId: bigint, tenant: string): StoredPlant {
  const [id, name, tag, createdBy, clientId, tokenId, at] = row.map(textOf);
  const createdAt = at === undefined ? undefined : `${at.replace(' ', 'T')}Z`;
  const fields = { id, name, tag, tenant, createdBy, clientId, tokenId, createdAt };
  return storedPlant(fields, expectedId, 'mysqlStore');
}

import type { TableName } from './table-name';

// The outbox's two tables, named after the plants table: `<table>_events`, the events written with
// their plants, and `<table>_events_lease`, one row per lease name, so that one relay runs at a time.
const EVENTS_SUFFIX = '_events';
const LEASE_SUFFIX = '_events_lease';
// MySQL refuses a name over 64 characters: past 51 the lease table's name would not fit.
const MAX_NAME = 64 - LEASE_SUFFIX.length;
const TEXT = 'CHARACTER SET utf8mb4 COLLATE utf8mb4_bin';

/** The outbox tables of one plants table: quoted, and as `information_schema` names them. */
export interface OutboxTableNames {
  readonly events: TableName;
  readonly lease: TableName;
}

/**
 * Names the outbox tables after the plants table.
 *
 * @param name - the plants table, checked
 * @returns the names, or `undefined` when the table's name is over 51 characters: such a store has
 *   no outbox (a service with `events` on refuses it at start-up)
 */
export function outboxTableNames(name: TableName): OutboxTableNames | undefined {
  if (name.table.length > MAX_NAME) return undefined;
  const named = (suffix: string): TableName => {
    const table = `${name.table}${suffix}`;
    const prefix = name.database === undefined ? '' : `\`${name.database}\`.`;
    return { quoted: `${prefix}\`${table}\``, database: name.database, table };
  };
  return { events: named(EVENTS_SUFFIX), lease: named(LEASE_SUFFIX) };
}

/**
 * The statements that create the outbox tables, idempotently (`CREATE TABLE IF NOT EXISTS`).
 *
 * - events: `seq` (`AUTO_INCREMENT`), the order events are written in and handed out; `event_id`,
 *   the CloudEvents id (unique, the key the relay settles by); `tenant`, `plant_id`, `type`,
 *   `time`; `body`, the CloudEvents JSON as bytes in `utf8mb4` (never `JSON`, which reorders and
 *   respaces it); `attempts`, `next_attempt_at`, `last_error` and `dead` for the relay's retries.
 * - lease: one row per lease name, its holder and when it expires.
 *
 * @param names - the tables, from {@link outboxTableNames}
 * @returns the two statements, without semicolons
 */
export function outboxSchemaStatements(names: OutboxTableNames): readonly string[] {
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${names.events.quoted} (`,
      '  seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,',
      `  event_id VARCHAR(255) ${TEXT} NOT NULL,`,
      `  tenant VARCHAR(128) ${TEXT} NOT NULL DEFAULT '',`,
      '  plant_id BIGINT NOT NULL,',
      `  type VARCHAR(255) ${TEXT} NOT NULL,`,
      '  time DATETIME(3) NOT NULL,',
      `  body MEDIUMTEXT ${TEXT} NOT NULL,`,
      '  attempts INT NOT NULL DEFAULT 0,',
      '  next_attempt_at DATETIME(3) NOT NULL,',
      `  last_error TEXT ${TEXT} NULL,`,
      '  dead BOOLEAN NOT NULL DEFAULT FALSE,',
      '  UNIQUE KEY event_id (event_id)',
      `) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    ].join('\n'),
    [
      `CREATE TABLE IF NOT EXISTS ${names.lease.quoted} (`,
      `  name VARCHAR(255) ${TEXT} NOT NULL PRIMARY KEY,`,
      `  holder VARCHAR(255) ${TEXT} NOT NULL,`,
      '  expires_at DATETIME(3) NOT NULL',
      `) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin`,
    ].join('\n'),
  ];
}

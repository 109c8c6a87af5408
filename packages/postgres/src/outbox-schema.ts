// The outbox's two tables, named after the plants table: `<table>_events`, the events written with
// their plants, and `<table>_events_lease`, one row per lease name, so that one relay runs at a time.

const EVENTS_SUFFIX = '_events';
const LEASE_SUFFIX = '_events_lease';
// PostgreSQL truncates an identifier past 63 bytes: a longer name would silently become another
// table's (the lease's truncated name can be the plants table's own).
const MAX_NAME = 63 - LEASE_SUFFIX.length;

/** The quoted names of the outbox tables of one plants table. */
export interface OutboxTableNames {
  /** `"<table>_events"`, schema-qualified as the plants table is. */
  readonly events: string;
  /** `"<table>_events_lease"`, schema-qualified as the plants table is. */
  readonly lease: string;
}

/**
 * Names the outbox tables after the plants table.
 *
 * @param table - the plants table as the caller passed it, already checked by `quoteTableName`
 * @returns the quoted names, or `undefined` when the table's name is over 50 characters: such a
 *   store has no outbox (a service with `events` on refuses it at start-up)
 * @example
 * ```ts
 * outboxTableNames('app.plants'); // { events: '"app"."plants_events"', lease: '"app"."plants_events_lease"' }
 * ```
 */
export function outboxTableNames(table: string): OutboxTableNames | undefined {
  const parts = table.split('.');
  const name = parts.pop() ?? '';
  if (name.length > MAX_NAME) return undefined;
  const schema = parts.map((part) => `"${part}".`).join('');
  return {
    events: `${schema}"${name}${EVENTS_SUFFIX}"`,
    lease: `${schema}"${name}${LEASE_SUFFIX}"`,
  };
}

/**
 * The statements that create the outbox tables, idempotently (`CREATE TABLE IF NOT EXISTS`).
 *
 * - events: `seq BIGSERIAL`, the order events are written in and handed out; `event_id` the
 *   CloudEvents id (unique, the key the relay settles by); `tenant`, `plant_id`, `type`, `time`;
 *   `body TEXT`, the CloudEvents JSON byte for byte (`jsonb` would reorder its keys); `attempts`,
 *   `next_attempt_at`, `last_error` and `dead` for the relay's retries.
 * - lease: one row per lease name, its holder and when it expires.
 *
 * @param names - the tables, from {@link outboxTableNames}
 * @returns the two `CREATE TABLE IF NOT EXISTS` statements, without semicolons
 */
export function outboxSchemaStatements(names: OutboxTableNames): readonly string[] {
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${names.events} (`,
      '  seq BIGSERIAL PRIMARY KEY,',
      '  event_id TEXT NOT NULL UNIQUE,',
      '  tenant TEXT NOT NULL,',
      '  plant_id BIGINT NOT NULL,',
      '  type TEXT NOT NULL,',
      '  time TIMESTAMPTZ NOT NULL,',
      '  body TEXT NOT NULL,',
      '  attempts INTEGER NOT NULL DEFAULT 0,',
      '  next_attempt_at TIMESTAMPTZ NOT NULL,',
      '  last_error TEXT,',
      '  dead BOOLEAN NOT NULL DEFAULT false',
      ')',
    ].join('\n'),
    [
      `CREATE TABLE IF NOT EXISTS ${names.lease} (`,
      '  name TEXT PRIMARY KEY,',
      '  holder TEXT NOT NULL,',
      '  expires_at TIMESTAMPTZ NOT NULL',
      ')',
    ].join('\n'),
  ];
}

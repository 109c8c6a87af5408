import type { Cancellation } from '@plantstore/core';
import {
  type DeadEvent,
  type EventOutbox,
  type PendingEvent,
  type StoreGate,
} from '@plantstore/core/store-kit';
import type { OutboxTableNames } from './outbox-schema';
import type { SqlRunner } from './runner';

// The one lease the relay takes; the table keeps a row per name so that other leases can join it.
const LEASE = 'relay';
// Single-word aliases, so that a client's column-name transform (postgres.js `transform: camel`)
// leaves them as they are; times as ISO 8601 text, the same whatever the driver's date parser.
const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COLUMNS =
  `event_id AS id, tenant, plant_id::text AS plant, type, ${iso('time')} AS at, body, ` +
  'attempts, last_error AS error';
// A list of event ids travels as one JSON text: the same on every client, arrays or not.
const ID_LIST = 'SELECT json_array_elements_text($1::text::json)';

/**
 * The outbox of a PostgreSQL store: its events table and its lease table, every method one
 * statement, bounded by the store time-out and refused once the store is closed.
 *
 * @param runner - the store's runner
 * @param gate - the store's gate
 * @param names - the outbox tables
 * @returns the outbox the relay reads
 */
export function postgresOutbox(
  runner: SqlRunner,
  gate: StoreGate,
  names: OutboxTableNames,
): EventOutbox {
  const { events, lease } = names;
  const call = <T>(work: (cancelled: Cancellation) => Promise<T>) => gate.bounded(work);
  const count = async (sql: string, values: unknown[], cancelled: Cancellation) => {
    const [row] = await runner.write(
      `WITH done AS (${sql} RETURNING 1) SELECT count(*)::int AS n FROM done`,
      values,
      cancelled,
    );
    return Number((row as { n?: unknown } | undefined)?.n ?? 0);
  };

  return {
    lease: (holder, ms, now) =>
      call(async (cancelled) => {
        const rows = await runner.write(
          `INSERT INTO ${lease} AS held (name, holder, expires_at) ` +
            `VALUES ('${LEASE}', $1, $2::timestamptz) ON CONFLICT (name) DO UPDATE ` +
            'SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at ' +
            'WHERE held.holder = EXCLUDED.holder OR held.expires_at <= $3::timestamptz ' +
            'RETURNING 1 AS held',
          [holder, new Date(now.getTime() + ms).toISOString(), now.toISOString()],
          cancelled,
        );
        return rows.length > 0;
      }),
    release: (holder) =>
      call(async (cancelled) => {
        await runner.write(
          `DELETE FROM ${lease} WHERE name = '${LEASE}' AND holder = $1`,
          [holder],
          cancelled,
        );
      }),
    due: (limit, now) =>
      call(async (cancelled) => {
        const rows = await runner.read(
          `SELECT ${COLUMNS} FROM ${events} ` +
            'WHERE NOT dead AND next_attempt_at <= $1::timestamptz ORDER BY seq LIMIT $2::bigint',
          [now.toISOString(), String(limit)],
          cancelled,
        );
        return rows.map(pendingOf);
      }),
    delivered: (ids) =>
      call(async (cancelled) => {
        if (ids.length === 0) return;
        await runner.write(
          `DELETE FROM ${events} WHERE event_id IN (${ID_LIST})`,
          [JSON.stringify(ids)],
          cancelled,
        );
      }),
    failed: (id, failure) =>
      call(async (cancelled) => {
        await runner.write(
          `UPDATE ${events} SET attempts = $2::int, last_error = $3, ` +
            'next_attempt_at = COALESCE($4::timestamptz, next_attempt_at), ' +
            'dead = $4::timestamptz IS NULL WHERE event_id = $1',
          [id, String(failure.attempts), failure.error, failure.retryAt?.toISOString() ?? null],
          cancelled,
        );
      }),
    dead: (limit) =>
      call(async (cancelled) => {
        const rows = await runner.read(
          `SELECT ${COLUMNS} FROM ${events} WHERE dead ORDER BY seq LIMIT $1::bigint`,
          [String(limit)],
          cancelled,
        );
        return rows.map((row) => pendingOf(row) as DeadEvent);
      }),
    redrive: (ids) =>
      call((cancelled) =>
        count(
          `UPDATE ${events} SET dead = false, attempts = 0, last_error = NULL, ` +
            "next_attempt_at = '-infinity' WHERE dead " +
            `AND ($1::text IS NULL OR event_id IN (${ID_LIST}))`,
          [ids === undefined ? null : JSON.stringify(ids)],
          cancelled,
        ),
      ),
  };
}

/** An events row, by its single-word aliases, as the relay takes it. */
function pendingOf(row: unknown): PendingEvent {
  const { id, tenant, plant, type, at, body, attempts, error } = row as Record<string, unknown>;
  return {
    id: String(id),
    type: type as PendingEvent['type'],
    tenant: String(tenant),
    plantId: BigInt(String(plant)),
    time: new Date(String(at)),
    body: String(body),
    attempts: Number(attempts),
    lastError: typeof error === 'string' ? error : undefined,
  };
}

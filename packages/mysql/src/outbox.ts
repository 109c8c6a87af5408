import type { Cancellation } from '@plantstore/core';
import type { DeadEvent, EventOutbox, PendingEvent, StoreGate } from '@plantstore/core/store-kit';
import type { OutboxTableNames } from './outbox-schema';
import { datetimeLiteral, textOf, utf8Literal } from './sql-text';
import type { StatementRunner } from './statement-runner';

// The one lease the relay takes; the table keeps a row per name so that other leases can join it.
const LEASE = utf8Literal('relay');
// Text as bytes, decoded here; times as `DATETIME(3)` text in UTC.
const COLUMNS =
  'CAST(event_id AS BINARY), CAST(tenant AS BINARY), CAST(plant_id AS CHAR), ' +
  'CAST(type AS BINARY), CAST(time AS CHAR), CAST(body AS BINARY), attempts, ' +
  'CAST(last_error AS BINARY)';
// `redrive` makes an event due at any clock's now.
const LONG_AGO = "'1000-01-01 00:00:00.000'";

const idList = (ids: readonly string[]) => ids.map(utf8Literal).join(', ');

/**
 * The outbox of a MySQL store: its events table and its lease table, bounded by the store time-out
 * and refused once the store is closed.
 *
 * @param runner - the store's runner
 * @param gate - the store's gate
 * @param names - the outbox tables
 * @returns the outbox the relay reads
 */
export function mysqlOutbox(
  runner: StatementRunner,
  gate: StoreGate,
  names: OutboxTableNames,
): EventOutbox {
  const events = names.events.quoted;
  const lease = names.lease.quoted;
  const call = <T>(work: (cancelled: Cancellation) => Promise<T>) => gate.bounded(work);
  const select = async (where: string, limit: number, cancelled: Cancellation) => {
    const rows = (await runner.run(
      `SELECT ${COLUMNS} FROM ${events} WHERE ${where} ORDER BY seq LIMIT ${count(limit)}`,
      cancelled,
    )) as unknown[][];
    return rows.map(pendingOf);
  };
  const update = async (sql: string, cancelled: Cancellation) =>
    Number(((await runner.run(sql, cancelled)) as { affectedRows?: unknown }).affectedRows ?? 0);

  return {
    // One upsert, then the holder read back in the same transaction: the row is locked by then, so
    // what it reads is what the upsert left. `holder` is set first; `expires_at` follows it.
    lease: (holder, ms, now) =>
      call((cancelled) =>
        runner.transaction(async (run) => {
          const who = utf8Literal(holder);
          await run(
            `INSERT INTO ${lease} (name, holder, expires_at) VALUES (${LEASE}, ${who}, ` +
              `${datetimeLiteral(new Date(now.getTime() + ms))}) ON DUPLICATE KEY UPDATE ` +
              `holder = IF(holder = VALUES(holder) OR expires_at <= ${datetimeLiteral(now)}, ` +
              'VALUES(holder), holder), ' +
              'expires_at = IF(holder = VALUES(holder), VALUES(expires_at), expires_at)',
          );
          const rows = (await run(
            `SELECT holder = ${who} FROM ${lease} WHERE name = ${LEASE}`,
          )) as unknown[][];
          return Number(rows[0]?.[0]) === 1;
        }, cancelled),
      ),
    release: (holder) =>
      call(async (cancelled) => {
        await runner.run(
          `DELETE FROM ${lease} WHERE name = ${LEASE} AND holder = ${utf8Literal(holder)}`,
          cancelled,
        );
      }),
    due: (limit, now) =>
      call((cancelled) =>
        select(`NOT dead AND next_attempt_at <= ${datetimeLiteral(now)}`, limit, cancelled),
      ),
    delivered: (ids) =>
      call(async (cancelled) => {
        if (ids.length === 0) return;
        await runner.run(`DELETE FROM ${events} WHERE event_id IN (${idList(ids)})`, cancelled);
      }),
    failed: (id, failure) =>
      call(async (cancelled) => {
        const { retryAt } = failure;
        const next = retryAt === undefined ? 'next_attempt_at' : datetimeLiteral(retryAt);
        await runner.run(
          `UPDATE ${events} SET attempts = ${count(failure.attempts)}, ` +
            `last_error = ${utf8Literal(failure.error)}, next_attempt_at = ${next}, ` +
            `dead = ${retryAt === undefined ? 'TRUE' : 'FALSE'} WHERE event_id = ${utf8Literal(id)}`,
          cancelled,
        );
      }),
    dead: (limit) =>
      call(async (cancelled) => (await select('dead', limit, cancelled)) as DeadEvent[]),
    redrive: (ids) =>
      call(async (cancelled) => {
        if (ids?.length === 0) return 0;
        const which = ids === undefined ? '' : ` AND event_id IN (${idList(ids)})`;
        return update(
          `UPDATE ${events} SET dead = FALSE, attempts = 0, last_error = NULL, ` +
            `next_attempt_at = ${LONG_AGO} WHERE dead${which}`,
          cancelled,
        );
      }),
  };
}

/** A whole count as SQL text, refusing anything else (it is spliced into the statement). */
function count(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(`mysqlStore outbox: expected a whole count; received ${String(value)}.`);
  }
  return String(value);
}

/** An events row, as the relay takes it. */
function pendingOf(row: readonly unknown[]): PendingEvent {
  const [id, tenant, plant, type, at, body, , error] = row.map(textOf);
  return {
    id: String(id),
    type: type as PendingEvent['type'],
    tenant: String(tenant),
    plantId: BigInt(String(plant)),
    time: new Date(`${String(at).replace(' ', 'T')}Z`),
    body: String(body),
    attempts: Number(row[6]),
    lastError: error,
  };
}

// The outbox of d1Store (the service's `events` option): its tables, each statement on one line
// (D1's `exec()` runs each line as one), and the statements the store and the relay run. `seq`
// is the write order; the event's time is epoch milliseconds, its body TEXT kept byte for byte,
// the plant id a 64-bit INTEGER crossing as decimal text as in `plants`. A pending event has
// `dead` 0 and is due once `retry_at` (epoch ms, 0 at once) is past; a dead one has `dead` 1.

/** The outbox's tables, one statement a line. */
export const EVENTS_SCHEMA = [
  'CREATE TABLE IF NOT EXISTS plants_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, ' +
    "id TEXT NOT NULL UNIQUE, tenant TEXT NOT NULL DEFAULT '', plant_id INTEGER NOT NULL, " +
    'time INTEGER NOT NULL, body TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, ' +
    'retry_at INTEGER NOT NULL DEFAULT 0, last_error TEXT, dead INTEGER NOT NULL DEFAULT 0)',
  'CREATE INDEX IF NOT EXISTS plants_events_due ON plants_events (dead, seq)',
  'CREATE TABLE IF NOT EXISTS plants_events_lease (name TEXT PRIMARY KEY, holder TEXT NOT NULL, ' +
    'ends INTEGER NOT NULL)',
] as const;

// Inserts the event only when the statement just before it in the batch, the plant's insert,
// inserted a row: `changes()` is that statement's count, 0 when the plant existed.
export const INSERT_EVENT =
  'INSERT INTO plants_events (id, tenant, plant_id, time, body) ' +
  'SELECT ?1, ?2, CAST(?3 AS INTEGER), ?4, ?5 WHERE changes() = 1';

const COLUMNS =
  'id, tenant, CAST(plant_id AS TEXT) AS plantId, time, body, attempts, last_error AS lastError';
export const DUE =
  `SELECT ${COLUMNS} FROM plants_events WHERE dead = 0 AND retry_at <= ?1 ` +
  'ORDER BY seq LIMIT ?2';
export const DEAD = `SELECT ${COLUMNS} FROM plants_events WHERE dead = 1 ORDER BY seq LIMIT ?1`;
// The ids cross as one JSON array: D1 binds at most 100 parameters a statement.
export const DELIVERED = 'DELETE FROM plants_events WHERE id IN (SELECT value FROM json_each(?1))';
export const FAILED =
  'UPDATE plants_events SET attempts = ?2, last_error = ?3, retry_at = ?4, dead = ?5 ' +
  'WHERE id = ?1 AND dead = 0';
const REDRIVEN = 'UPDATE plants_events SET dead = 0, attempts = 0, retry_at = 0 WHERE dead = 1';
export const REDRIVE_SOME = `${REDRIVEN} AND id IN (SELECT value FROM json_each(?1))`;
export const REDRIVE_ALL = REDRIVEN;
// The lease is taken (one row changed) when it is free, the holder's, or expired at the relay's
// `now`: the upsert's WHERE leaves another holder's unexpired lease as it is (no row changed).
export const LEASE =
  "INSERT INTO plants_events_lease (name, holder, ends) VALUES ('relay', ?1, ?2) " +
  'ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, ends = excluded.ends ' +
  'WHERE plants_events_lease.holder = excluded.holder OR plants_events_lease.ends <= ?3';
export const RELEASE = "DELETE FROM plants_events_lease WHERE name = 'relay' AND holder = ?1";

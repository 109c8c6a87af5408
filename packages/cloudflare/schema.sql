-- The tables of d1Store (@plantstore/cloudflare), as `d1Store(db).ensureSchema()` creates them.
-- Apply it once as a D1 migration: wrangler d1 migrations create plants init, copy this in, then
-- wrangler d1 migrations apply plants --remote.
-- A plant is keyed by (tenant, id): tenant is '' when the service keeps one id space. id is a
-- 64-bit SQLite INTEGER; the store writes and reads it as decimal text (CAST), because D1 hands
-- integers to JavaScript as Numbers, exact only up to 2^53. Beside the plant, for audit and the
-- owner rule of a replay: the token's sub, client_id (else azp) and jti, and the core's clock at
-- the create as ISO 8601 text (NULL in rows migrated from before they were kept).
CREATE TABLE IF NOT EXISTS plants (
  tenant TEXT NOT NULL DEFAULT '',
  id INTEGER NOT NULL,
  name TEXT NOT NULL,
  tag TEXT,
  created_by TEXT,
  client_id TEXT,
  created_at TEXT,
  token_id TEXT,
  PRIMARY KEY (tenant, id)
);
-- The outbox of the service's `events` option: d1Store writes a plant's `plant.created` event here
-- in the same batch (one transaction) as the plant, only when it creates it; the relay reads them
-- in write order (seq), marks failures (attempts, retry_at in epoch ms, dead) and deletes what was
-- delivered. The lease keeps one relay active across the Worker's instances.
CREATE TABLE IF NOT EXISTS plants_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  tenant TEXT NOT NULL DEFAULT '',
  plant_id INTEGER NOT NULL,
  time INTEGER NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  retry_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  dead INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS plants_events_due ON plants_events (dead, seq);
CREATE TABLE IF NOT EXISTS plants_events_lease (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  ends INTEGER NOT NULL
);

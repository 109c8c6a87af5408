-- The tables of @plantstore/postgres. postgresStore().ensureSchema() runs these same statements
-- (for the table name you configure); run them yourself if your migrations own the schema.
-- Generated from src/schema.ts: edit there, a test keeps this file equal to it.
CREATE TABLE IF NOT EXISTS "plants" (
  tenant TEXT NOT NULL DEFAULT '',
  id BIGINT NOT NULL,
  name TEXT NOT NULL,
  tag TEXT,
  created_by TEXT,
  client_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  token_id TEXT,
  PRIMARY KEY (tenant, id)
);

CREATE TABLE IF NOT EXISTS "plants_events" (
  seq BIGSERIAL PRIMARY KEY,
  event_id TEXT NOT NULL UNIQUE,
  tenant TEXT NOT NULL,
  plant_id BIGINT NOT NULL,
  type TEXT NOT NULL,
  time TIMESTAMPTZ NOT NULL,
  body TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  last_error TEXT,
  dead BOOLEAN NOT NULL DEFAULT false
);

CREATE TABLE IF NOT EXISTS "plants_events_lease" (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL
);

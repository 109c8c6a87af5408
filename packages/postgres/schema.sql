-- The table of @plantstore/postgres. postgresStore().ensureSchema() runs this same statement
-- (for the table name you configure); run it yourself if your migrations own the schema.
-- Generated from src/schema.ts: edit there, a test keeps this file equal to it.
CREATE TABLE IF NOT EXISTS "plants" (
  id BIGINT PRIMARY KEY,
  name TEXT NOT NULL,
  tag TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  created_by TEXT
);

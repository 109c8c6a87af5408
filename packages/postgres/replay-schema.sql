-- The DPoP replay table of @plantstore/postgres. postgresReplayStore() runs these same
-- statements (for the table name you configure) when it finds the table missing; run them
-- yourself if your migrations own the schema.
-- Generated from src/replay-schema.ts: edit there, a test keeps this file equal to it.
CREATE TABLE IF NOT EXISTS "plantstore_dpop_replay" (
  key TEXT COLLATE "C" PRIMARY KEY,
  expires_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS "plantstore_dpop_replay_expires_at" ON "plantstore_dpop_replay" (expires_at);

-- The plants table of d1Store (@plantstore/cloudflare), as `d1Store(db).ensureSchema()` creates it.
-- Apply it once as a D1 migration: wrangler d1 migrations create plants init, copy this in, then
-- wrangler d1 migrations apply plants --remote.
-- id is SQLite's 64-bit INTEGER PRIMARY KEY; the store writes and reads it as decimal text
-- (CAST), because D1 hands integers to JavaScript as Numbers, exact only up to 2^53.
CREATE TABLE IF NOT EXISTS plants (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  tag TEXT,
  created_by TEXT
);

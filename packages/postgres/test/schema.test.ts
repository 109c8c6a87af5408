import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresStore, schemaSql } from '../src/index';
import { schemaFileText } from '../src/schema';

const client = { query: () => Promise.resolve({ rows: [] }) };

describe('the schema', () => {
  it('ships a schema.sql equal to the statement ensureSchema runs', () => {
    const shipped = readFileSync(new URL('../schema.sql', import.meta.url), 'utf8');
    expect(shipped, 'schema.sql drifted from src/schema.ts: regenerate it').toBe(schemaFileText());
    expect(shipped).toContain(`${schemaSql()};`);
  });

  it('creates the key (tenant, id), name TEXT NOT NULL, tag and the audit columns', () => {
    const sql = schemaSql('app.plants');
    expect(sql).toMatch(/^CREATE TABLE IF NOT EXISTS "app"\."plants" \(/);
    for (const column of [
      "tenant TEXT NOT NULL DEFAULT ''",
      'id BIGINT NOT NULL',
      'name TEXT NOT NULL',
      'tag TEXT,',
      'created_by TEXT,',
      'client_id TEXT,',
      'created_at TIMESTAMPTZ NOT NULL DEFAULT now()',
      'token_id TEXT,',
      'PRIMARY KEY (tenant, id)',
    ]) {
      expect(sql).toContain(column);
    }
  });
});

describe('the table option', () => {
  it('quotes a plain or schema-qualified name once, keeping its case', () => {
    expect(postgresStore({ client }).table).toBe('"plants"');
    expect(postgresStore({ client, table: 'app.plants' }).table).toBe('"app"."plants"');
    expect(postgresStore({ client, table: 'Plants_2$' }).table).toBe('"Plants_2$"');
  });

  it.each([
    'plants; DROP TABLE users; --',
    'plants"--',
    '"plants"',
    'a.b.c',
    '.plants',
    'app.',
    '',
    ' plants',
    '1plants',
    'plänts',
    'pl\u0000ants',
    'x'.repeat(64),
  ])('refuses the table name %j at creation, before any SQL runs', (table) => {
    let queried = false;
    const spy = {
      query: () => {
        queried = true;
        return Promise.resolve({ rows: [] });
      },
    };
    expect(() => postgresStore({ client: spy, table })).toThrow(TypeError);
    expect(() => schemaSql(table)).toThrow(/must be a table name/);
    expect(queried).toBe(false);
  });

  it('refuses a table name that is not a string', () => {
    expect(() => postgresStore({ client, table: 42 as unknown as string })).toThrow(
      /^postgresStore: option "table" must be a table name, .*; received 42$/,
    );
  });
});

describe('the client option', () => {
  it('refuses a missing client or one without query, naming what it received', () => {
    expect(() => postgresStore({} as never)).toThrow(
      /^postgresStore: option "client" must be .*; received undefined$/,
    );
    expect(() => postgresStore({ client: null as never })).toThrow(/; received null$/);
    expect(() => postgresStore({ client: {} as never })).toThrow(
      /; received an instance of Object$/,
    );
    expect(() => postgresStore(undefined as never)).toThrow(
      new TypeError('postgresStore: option "options" must be an object; received undefined'),
    );
  });

  it('refuses an unknown option, so a typo fails at start-up', () => {
    expect(() => postgresStore({ client, tabel: 'x' } as never)).toThrow(
      new TypeError('postgresStore: unknown option "tabel" (did you mean "table"?)'),
    );
  });
});

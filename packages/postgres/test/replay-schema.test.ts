import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresReplayStore, replaySchemaSql } from '../src/index';
import { replaySchemaFileText } from '../src/replay-schema';

/** A client that records every statement, to show that refused options send none. */
function spyClient() {
  const sent: string[] = [];
  return {
    sent,
    client: {
      query: (text: string) => {
        sent.push(text);
        return Promise.resolve({ rows: [] });
      },
    },
  };
}

describe('the replay schema', () => {
  it('ships a replay-schema.sql equal to the statements the store runs', () => {
    const shipped = readFileSync(new URL('../replay-schema.sql', import.meta.url), 'utf8');
    expect(shipped, 'replay-schema.sql drifted from src/replay-schema.ts: regenerate it').toBe(
      replaySchemaFileText(),
    );
    expect(shipped).toContain(`${replaySchemaSql()};`);
  });

  it('creates key TEXT COLLATE "C" PRIMARY KEY and expires_at BIGINT, indexed', () => {
    expect(replaySchemaSql()).toBe(
      [
        'CREATE TABLE IF NOT EXISTS "plantstore_dpop_replay" (',
        '  key TEXT COLLATE "C" PRIMARY KEY,',
        '  expires_at BIGINT NOT NULL',
        ');',
        'CREATE INDEX IF NOT EXISTS "plantstore_dpop_replay_expires_at" ' +
          'ON "plantstore_dpop_replay" (expires_at)',
      ].join('\n'),
    );
  });

  it('names the index after the table, unqualified, for a schema-qualified table', () => {
    expect(replaySchemaSql('app.Replay')).toContain(
      'CREATE INDEX IF NOT EXISTS "Replay_expires_at" ON "app"."Replay" (expires_at)',
    );
  });
});

describe('the options of postgresReplayStore', () => {
  it('quotes the default, a plain or a schema-qualified table once, keeping its case', () => {
    const { client } = spyClient();
    expect(postgresReplayStore({ client }).table).toBe('"plantstore_dpop_replay"');
    expect(postgresReplayStore({ client, table: 'app.Replay' }).table).toBe('"app"."Replay"');
  });

  it.each([
    'replay; DROP TABLE users; --',
    'replay"--',
    '"replay"',
    'a.b.c',
    '',
    '1replay',
    'x'.repeat(64),
  ])('refuses the table name %j at creation, before any SQL runs', (table) => {
    const { client, sent } = spyClient();
    expect(() => postgresReplayStore({ client, table })).toThrow(
      /^postgresReplayStore: option "table" must be a table name/,
    );
    expect(() => replaySchemaSql(table)).toThrow(TypeError);
    expect(sent).toEqual([]);
  });

  it('refuses a table name whose index name would pass 63 characters', () => {
    const { client } = spyClient();
    expect(postgresReplayStore({ client, table: `app.${'r'.repeat(52)}` }).table).toBe(
      `"app"."${'r'.repeat(52)}"`,
    );
    expect(() => postgresReplayStore({ client, table: 'r'.repeat(53) })).toThrow(
      new TypeError(
        'postgresReplayStore: option "table" must name a table of at most 52 characters, so ' +
          'that its index "<table>_expires_at" fits PostgreSQL\'s 63; received a string of 53 characters',
      ),
    );
  });

  it.each([
    ['pruneEvery', 0, '0'],
    ['pruneEvery', 1.5, '1.5'],
    ['pruneLimit', 1_000_001, '1000001'],
    ['pruneLimit', '10', 'a string of 2 characters'],
  ])('refuses %s %j', (option, value, received) => {
    const { client } = spyClient();
    expect(() => postgresReplayStore({ client, [option]: value })).toThrow(
      new TypeError(
        `postgresReplayStore: option "${option}" must be a whole number from 1 to 1000000; ` +
          `received ${received}`,
      ),
    );
  });

  it('refuses a missing client or one without query, naming the factory', () => {
    expect(() => postgresReplayStore({} as never)).toThrow(
      /^postgresReplayStore: option "client" must be .*; received undefined$/,
    );
    expect(() => postgresReplayStore({ client: {} as never })).toThrow(
      /; received an instance of Object$/,
    );
    expect(() => postgresReplayStore(undefined as never)).toThrow(
      new TypeError('postgresReplayStore: option "options" must be an object; received undefined'),
    );
  });

  it('refuses an unknown option, so a typo fails at start-up', () => {
    const { client } = spyClient();
    expect(() => postgresReplayStore({ client, pruneEvry: 5 } as never)).toThrow(
      new TypeError('postgresReplayStore: unknown option "pruneEvry" (did you mean "pruneEvery"?)'),
    );
  });

  it('refuses times that are not epoch milliseconds, before any SQL runs', async () => {
    const { client, sent } = spyClient();
    const store = postgresReplayStore({ client });
    const signal = new AbortController().signal;
    for (const [expiresAt, now] of [
      [Number.NaN, 0],
      [1, Number.POSITIVE_INFINITY],
      [2 ** 60, 0],
    ] as const) {
      await expect(store.remember('k', expiresAt, { now, signal })).rejects.toThrow(
        /^postgresReplayStore: times must be epoch milliseconds/,
      );
    }
    expect(sent).toEqual([]);
  });
});

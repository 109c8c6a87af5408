import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { Principal } from '@plantstore/core';
import type { OutboxEvent } from '@plantstore/core/store-kit';
import { describeOutboxConformance, storeRecord } from '@plantstore/core/testing';
import { Client, Pool } from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore, type PostgresClient, type PostgresStore } from '../src/index';
import { databaseUrlFor, uniqueTable } from './services';

const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
const signal = new AbortController().signal;
// Keys in an order jsonb would change, and spacing json would not keep: the body must come back as sent.
const bodyOf = (id: string, plantId: bigint) =>
  `{"specversion":"1.0","id":"${id}","type":"plant.created","subject":"${plantId}","data":{"name":"Fern 🌿","id":${plantId}}}`;

function eventFor(plantId: bigint, tenant = ''): OutboxEvent {
  const id = randomUUID();
  const time = new Date('2026-01-02T03:04:05.678Z');
  return { id, type: 'plant.created', tenant, plantId, time, body: bodyOf(id, plantId) };
}

const create = (store: PostgresStore, id: bigint, event: OutboxEvent | undefined, name = 'Fern') =>
  store.insert(storeRecord({ id, name }), { principal, signal, event });

interface Db {
  query(sql: string): Promise<readonly Record<string, unknown>[]>;
  end(): Promise<void>;
}

type Opened = { client: PostgresClient; db: Db } | undefined;

const clients: [string, () => Promise<Opened> | undefined][] = [
  [
    'PGlite',
    async () => {
      const lite = new PGlite();
      await lite.waitReady;
      const db = {
        query: async (sql: string) => (await lite.query(sql)).rows as Record<string, unknown>[],
        end: () => lite.close(),
      };
      return { client: lite, db };
    },
  ],
  [
    'a pg Pool',
    () => {
      const url = databaseUrlFor('the PostgreSQL outbox on pg');
      if (url === undefined) return undefined;
      const pool = new Pool({ connectionString: url });
      const db = {
        query: async (sql: string) => (await pool.query(sql)).rows as Record<string, unknown>[],
        end: () => pool.end(),
      };
      return Promise.resolve({ client: pool, db });
    },
  ],
  [
    'a pg Client',
    async () => {
      const url = databaseUrlFor('the PostgreSQL outbox on a pg Client');
      if (url === undefined) return undefined;
      const client = new Client({ connectionString: url });
      await client.connect();
      const db = {
        query: async (sql: string) => (await client.query(sql)).rows as Record<string, unknown>[],
        end: () => client.end(),
      };
      return { client, db };
    },
  ],
  [
    'postgres.js',
    () => {
      const url = databaseUrlFor('the PostgreSQL outbox on postgres.js');
      if (url === undefined) return undefined;
      const sql = postgres(url, { max: 4, onnotice: () => undefined });
      const db = {
        query: async (text: string) => [...(await sql.unsafe(text))] as Record<string, unknown>[],
        end: () => sql.end(),
      };
      return Promise.resolve({ client: sql, db });
    },
  ],
];

describe.each(clients)('the PostgreSQL outbox on %s', (name, open) => {
  let opened: { client: PostgresClient; db: Db } | undefined;
  const tables: string[] = [];
  beforeAll(async () => {
    opened = await open();
  }, 300_000);
  afterAll(async () => {
    for (const table of tables) {
      await opened?.db.query(
        `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
      );
    }
    await opened?.db.end();
  });
  const fresh = async (): Promise<PostgresStore> => {
    const table = uniqueTable('outbox');
    tables.push(table);
    const store = postgresStore({ client: opened!.client, table });
    await store.ensureSchema();
    return store;
  };
  const rows = (sql: string) => opened!.db.query(sql);

  describeOutboxConformance({ describe, it }, `postgresStore on ${name}`, {
    create: fresh,
    // Another instance of the service: the same client, the same tables.
    createPeer: (store) =>
      postgresStore({ client: opened!.client, table: store.table.slice(1, -1) }),
    destroy: (store) => store.close(),
  });

  it('leaves no plant when the event cannot be written', async (context) => {
    if (opened === undefined) return context.skip('DATABASE_URL is not set');
    const store = await fresh();
    const events = `${store.table.slice(0, -1)}_events"`;
    await rows(`ALTER TABLE ${events} ADD CONSTRAINT refuse_tenant CHECK (tenant <> 'refused')`);
    await expect(
      store.insert(storeRecord({ id: 9n, name: 'Fern' }, { tenant: 'refused' }), {
        principal,
        signal,
        event: eventFor(9n, 'refused'),
      }),
    ).rejects.toThrow(/refuse_tenant/);
    expect(await rows(`SELECT id FROM ${store.table}`)).toEqual([]);
    expect(await rows(`SELECT seq FROM ${events}`)).toEqual([]);
  });

  it('names ensureSchema() when events are on and the outbox table is missing', async (context) => {
    if (opened === undefined) return context.skip('DATABASE_URL is not set');
    const store = await fresh();
    await rows(`DROP TABLE ${store.table.slice(0, -1)}_events"`);
    await expect(create(store, 4n, eventFor(4n))).rejects.toThrow(
      /the outbox table ".*_events" does not exist\. Events are on: run store\.ensureSchema\(\)/,
    );
    expect(await rows(`SELECT id FROM ${store.table}`)).toEqual([]);
    expect(await create(store, 4n, undefined)).toEqual({ created: true });
  });

  it('refuses at ensureSchema() an events table whose body is jsonb', async (context) => {
    if (opened === undefined) return context.skip('DATABASE_URL is not set');
    const store = await fresh();
    await rows(
      `ALTER TABLE ${store.table.slice(0, -1)}_events" ALTER COLUMN body TYPE jsonb USING body::jsonb`,
    );
    await expect(store.ensureSchema()).rejects.toThrow(/column body is jsonb, not text/);
  });

  it('refuses the outbox once the store is closed', async (context) => {
    if (opened === undefined) return context.skip('DATABASE_URL is not set');
    const store = await fresh();
    await store.close();
    await expect(store.outbox!.due(1, new Date())).rejects.toMatchObject({
      status: 503,
      code: 'store_unavailable',
    });
  });
});

describe('the outbox of a long table name', () => {
  it('is absent past 50 characters, which the names of its tables would not fit', () => {
    const client = { query: () => Promise.resolve({ rows: [] }) };
    expect(postgresStore({ client, table: 'p'.repeat(50) }).outbox).toBeDefined();
    expect(postgresStore({ client, table: 'p'.repeat(51) }).outbox).toBeUndefined();
  });
});

import { storeRecord } from '@plantstore/core/testing';
import { connect, createServer, type Server } from 'node:net';
import type { Principal } from '@plantstore/core';
import { Client, Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../src/index';
import { databaseUrlFor, delay, uniqueTable, waitFor } from './services';

const databaseUrl = databaseUrlFor('the cancel ordering suite');

const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };
const CANCEL_DELAY_MS = 300;

/**
 * A TCP relay to the real server that holds back every CancelRequest for `delayMs`, as a distant
 * server or a busy postmaster would: the aborted statement can end on its own while its cancel is
 * still on the way. With `delayMs` of `'reset'` it resets the cancel's connection instead, so that
 * whether the request arrived cannot be told.
 */
async function slowCancelRelay(target: URL, delayMs: number | 'reset') {
  let cancels = 0;
  const server: Server = createServer((incoming) => {
    incoming.once('data', (first) => {
      incoming.pause();
      const isCancel = first.length === 16 && first.readInt32BE(4) === 80_877_102;
      if (isCancel) cancels += 1;
      if (isCancel && delayMs === 'reset') {
        incoming.resetAndDestroy();
        return;
      }
      setTimeout(
        () => {
          const outgoing = connect(Number(target.port || 5432), target.hostname, () => {
            outgoing.write(first);
            incoming.pipe(outgoing);
            outgoing.pipe(incoming);
            incoming.resume();
          });
          outgoing.on('error', () => incoming.destroy());
          incoming.on('error', () => outgoing.destroy());
        },
        isCancel && typeof delayMs === 'number' ? delayMs : 0,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    config: {
      host: '127.0.0.1',
      port,
      user: decodeURIComponent(target.username),
      password: decodeURIComponent(target.password),
      database: target.pathname.slice(1),
    },
    cancels: () => cancels,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A session holding an uncommitted row of `id`: an insert of the same id waits for it. */
async function holdRow(table: string, id: number) {
  const session = new Client({ connectionString: databaseUrl });
  await session.connect();
  await session.query('BEGIN');
  await session.query(`INSERT INTO "${table}" (id, name) VALUES ($1, 'held')`, [id]);
  return async () => {
    await session.query('ROLLBACK');
    await session.end();
  };
}

describe.skipIf(databaseUrl === undefined)('the cancel of an aborted insert', () => {
  let admin: Pool;
  let relay: Awaited<ReturnType<typeof slowCancelRelay>>;
  const tables: string[] = [];

  beforeAll(async () => {
    admin = new Pool({ connectionString: databaseUrl });
    relay = await slowCancelRelay(new URL(databaseUrl ?? ''), CANCEL_DELAY_MS);
  });

  afterAll(async () => {
    for (const table of tables)
      await admin.query(
        `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
      );
    await admin.end();
    await relay.close();
  });

  const freshStore = async (client: Pool | Client) => {
    const table = uniqueTable('cancel');
    tables.push(table);
    const store = postgresStore({ client, table });
    await store.ensureSchema();
    return { store, table };
  };

  /** Pids of backends whose insert waits for another transaction's row. */
  const waiting = async (table: string): Promise<number> => {
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE state = 'active' AND wait_event_type = 'Lock' AND query LIKE $1`,
      [`INSERT INTO "${table}" %`],
    );
    return rows[0]?.n ?? -1;
  };

  it.each([
    [
      'the next user of its pooled connection (Pool, max 1)',
      () => new Pool({ ...relay.config, max: 1 }),
    ],
    ['the next statement on a single Client', () => new Client(relay.config)],
  ])(
    'waits until it was delivered before the connection runs anything else, so it never reaches %s',
    async (_, make) => {
      const client = make();
      if (client instanceof Client) await client.connect();
      const { store, table } = await freshStore(client);
      const releaseFirst = await holdRow(table, 1);
      const releaseNext = await holdRow(table, 2);
      try {
        const controller = new AbortController();
        const aborted = store.insert(storeRecord({ id: 1n, name: 'a' }), {
          principal,
          signal: controller.signal,
        });
        await waitFor(async () => (await waiting(table)) === 1, 'the first insert to wait');
        // Queued behind the first: on the same connection, it runs as soon as that one has ended.
        const next = store.insert(storeRecord({ id: 2n, name: 'b' }), {
          principal,
          signal: new AbortController().signal,
        });
        const cancelsBefore = relay.cancels();
        controller.abort(new Error('store time-out'));
        await expect(aborted).rejects.toThrow('store time-out');
        // The first statement ends on its own (it inserts id 1) while its cancel is held back.
        await releaseFirst();
        await waitFor(() => Promise.resolve(relay.cancels() === cancelsBefore + 1), 'the cancel');
        // The next insert waits for id 2 when the late cancel arrives: it must not be what it stops.
        await waitFor(async () => (await waiting(table)) === 1, 'the next insert to wait');
        await delay(CANCEL_DELAY_MS + 200);
        expect(await waiting(table)).toBe(1);
        await releaseNext();
        await expect(next).resolves.toEqual({ created: true });
      } finally {
        await releaseFirst().catch(() => undefined);
        await releaseNext().catch(() => undefined);
      }
      await store.close();
      await client.end();
    },
  );

  it('discards the pooled connection when its cancel was sent but not seen through', async () => {
    const resetting = await slowCancelRelay(new URL(databaseUrl ?? ''), 'reset');
    const pool = new Pool({ ...resetting.config, max: 1 });
    const { store, table } = await freshStore(pool);
    const release = await holdRow(table, 1);
    try {
      const controller = new AbortController();
      const aborted = store.insert(storeRecord({ id: 1n, name: 'a' }), {
        principal,
        signal: controller.signal,
      });
      await waitFor(async () => (await waiting(table)) === 1, 'the insert to wait');
      controller.abort(new Error('store time-out'));
      await expect(aborted).rejects.toThrow('store time-out');
      await waitFor(() => Promise.resolve(resetting.cancels() === 1), 'the cancel');
    } finally {
      await release();
    }
    await store.close();
    // Ended rather than kept: a request that may still arrive finds no statement of anyone else's.
    expect(pool.totalCount).toBe(0);
    await pool.end();
    await resetting.close();
  });
});

import { existsSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { serviceUrl } from '@plantstore/core/testing';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backendKeyOf, sendCancelRequest, type BackendKey } from '../src/cancel-request';

const databaseUrl = serviceUrl(
  { it },
  'DATABASE_URL',
  'the CancelRequest suite',
  'postgres://postgres@127.0.0.1:5432/test',
);

describe('backendKeyOf', () => {
  it('reads the process id, cancel key, host and port a connected pg client holds', () => {
    const key = { processID: 42, secretKey: -7, host: '127.0.0.1', port: 5432 };
    expect(backendKeyOf(key)).toEqual(key);
    expect(backendKeyOf({ ...key, host: '/var/run/postgresql' })).toMatchObject({
      host: '/var/run/postgresql',
    });
  });

  it('offers no key for a client that has none (not connected, pg-native, or out of range)', () => {
    const key = { processID: 42, secretKey: 7, host: 'db', port: 5432 };
    expect(backendKeyOf({ ...key, processID: null })).toBeUndefined();
    expect(backendKeyOf({ ...key, secretKey: undefined })).toBeUndefined();
    expect(backendKeyOf({ ...key, secretKey: 2 ** 31 })).toBeUndefined();
    expect(backendKeyOf({ ...key, processID: 1.5 })).toBeUndefined();
    expect(backendKeyOf({ ...key, host: '' })).toBeUndefined();
    expect(backendKeyOf({ ...key, port: 0 })).toBeUndefined();
  });
});

describe('sendCancelRequest', () => {
  it('reports not-sent when nothing listens at the address', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await sendCancelRequest({ processID: 1, secretKey: 1, host: '127.0.0.1', port })).toBe(
      'not-sent',
    );
  });

  it('sends the 16-byte CancelRequest, and reports unknown when the peer never closes', async () => {
    const received: Buffer[] = [];
    const held: Socket[] = [];
    const server = createServer((socket) => {
      held.push(socket);
      socket.on('data', (chunk) => received.push(chunk));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const key: BackendKey = { processID: 0x01020304, secretKey: -2, host: '127.0.0.1', port };
      // 1 s, not less: on a stalled worker a shorter timer can fire before the 'connect' event.
      expect(await sendCancelRequest(key, 1_000)).toBe('unknown');
      expect(Buffer.concat(received).toString('hex')).toBe(
        '00000010' + '04d2162e' + '01020304' + 'fffffffe',
      );
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/**
 * Waits until the backend runs `pg_sleep`: a CancelRequest that arrives before the statement starts
 * is ignored by PostgreSQL (the idle case below), so a fixed pause would race a slow machine.
 */
async function untilSleeping(processID: number): Promise<void> {
  const watcher = new Client({ connectionString: databaseUrl });
  await watcher.connect();
  try {
    await expect
      .poll(
        async () =>
          (
            await watcher.query(
              "SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%pg_sleep%'",
              [processID],
            )
          ).rowCount,
        { timeout: 10_000, interval: 20 },
      )
      .toBe(1);
  } finally {
    await watcher.end();
  }
}

describe.skipIf(databaseUrl === undefined)('sendCancelRequest on a PostgreSQL server', () => {
  let client: Client;
  let key: BackendKey;

  beforeAll(async () => {
    client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const found = backendKeyOf(client);
    if (found === undefined) throw new Error('pg set no backend key');
    key = found;
  });

  afterAll(() => client.end());

  it('cancels the statement the backend is running', async () => {
    const sleeping = client.query('SELECT pg_sleep(10)').catch((error: unknown) => error);
    await untilSleeping(key.processID);
    const started = Date.now();
    expect(await sendCancelRequest(key)).toBe('delivered');
    expect(await sleeping).toMatchObject({ code: '57014' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('is ignored by an idle backend, so it cannot reach the statement sent after it was delivered', async () => {
    await client.query('SELECT 1');
    expect(await sendCancelRequest(key)).toBe('delivered');
    const { rows } = await client.query('SELECT true AS slept FROM pg_sleep(0.2)');
    expect(rows).toEqual([{ slept: true }]);
  });

  it('cancels nothing when the key matches no backend (a stale or made-up one)', async () => {
    const sleeping = client.query('SELECT true AS slept FROM pg_sleep(0.3)');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await sendCancelRequest({ ...key, secretKey: key.secretKey ^ 1 })).toBe('delivered');
    expect(await sendCancelRequest({ ...key, processID: 1 })).toBe('delivered');
    expect((await sleeping).rows).toEqual([{ slept: true }]);
  });
});

// The Debian and Ubuntu packages' socket directory; elsewhere (a server in a container) it is absent.
const SOCKET_DIR = '/var/run/postgresql';
const hasSocket = databaseUrl !== undefined && existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`);

describe.skipIf(!hasSocket)('sendCancelRequest over a Unix socket', () => {
  it('reaches the server through the socket file of a client connected by its directory', async (test) => {
    const url = new URL(databaseUrl ?? '');
    const local = new Client({
      host: SOCKET_DIR,
      port: 5432,
      user: decodeURIComponent(url.username),
      database: url.pathname.slice(1),
    });
    // The socket may ask for another login than the URL's (peer authentication): nothing to test then.
    if (
      !(await local.connect().then(
        () => true,
        () => false,
      ))
    )
      test.skip(); // skip reason: the socket wants another login (peer auth), so no cancel key to test
    try {
      const key = backendKeyOf(local);
      expect(key?.host).toBe(SOCKET_DIR);
      const sleeping = local.query('SELECT pg_sleep(10)').catch((error: unknown) => error);
      await untilSleeping(key?.processID ?? 0);
      expect(
        await sendCancelRequest(key ?? { processID: 0, secretKey: 0, host: '', port: 0 }),
      ).toBe('delivered');
      expect(await sleeping).toMatchObject({ code: '57014' });
    } finally {
      await local.end();
    }
  });
});

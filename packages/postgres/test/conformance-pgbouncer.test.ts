import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '@plantstore/core';
import {
  describeOutboxConformance,
  describeStoreConformance,
  storeRecord,
} from '@plantstore/core/testing';
import { Pool } from 'pg';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore, type PostgresStore } from '../src/index';
import {
  closedPort,
  databaseUrlFor,
  lockTable,
  lockWaiters,
  onSilentPostgresJs,
  uniqueTable,
  waitFor,
} from './services';

// PgBouncer from Debian's package (`apt-get install pgbouncer`), in transaction mode in front of the
// PostgreSQL server of DATABASE_URL: each statement may run on another server connection, so the
// store must use no named prepared statement and no session state. Skipped where it is not installed.
const databaseUrl = databaseUrlFor('the PgBouncer suite');
const pgbouncer = findPgBouncer();
if (pgbouncer === undefined) {
  // .ci/run installs it, so there a missing pgbouncer fails rather than skips.
  const required = process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1';
  const failOrSkip = required ? it : it.skip; // skip reason: no pgbouncer here, and none can be started
  failOrSkip(
    'runs the postgres client through PgBouncer: pgbouncer is not installed (apt-get install pgbouncer)',
    () => {
      throw new Error(
        'pgbouncer is not installed, and PLANTSTORE_REQUIRE_SERVICES=1 forbids skipping.',
      );
    },
  );
}

const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };

describe.skipIf(databaseUrl === undefined || pgbouncer === undefined)(
  'postgresStore on the postgres client through PgBouncer in transaction mode',
  () => {
    let bouncer: ChildProcess | undefined;
    let dir = '';
    let sql: postgres.Sql;
    let pool: Pool;
    const tables: string[] = [];

    const freshStore = async (): Promise<PostgresStore> => {
      const table = uniqueTable('pgbouncer');
      tables.push(table);
      const store = postgresStore({ client: sql, table });
      await store.ensureSchema();
      return store;
    };

    beforeAll(async () => {
      const server = new URL(databaseUrl ?? '');
      const port = await closedPort();
      dir = await mkdtemp(join(tmpdir(), 'plantstore-pgbouncer-'));
      await chmod(dir, 0o755);
      const ini = join(dir, 'pgbouncer.ini');
      await writeFile(
        ini,
        [
          '[databases]',
          `test = host=${server.hostname} port=${server.port || 5432} ` +
            `dbname=${server.pathname.slice(1)} user=${server.username || 'postgres'}`,
          '[pgbouncer]',
          'listen_addr = 127.0.0.1',
          `listen_port = ${port}`,
          'unix_socket_dir =',
          'auth_type = any',
          'pool_mode = transaction',
          'default_pool_size = 4',
          'log_connections = 0',
          'log_disconnections = 0',
          '',
        ].join('\n'),
      );
      // PgBouncer refuses to run as root; -u drops to the postgres user after reading the file.
      const asRoot = process.getuid?.() === 0;
      bouncer = spawn(pgbouncer ?? '', [...(asRoot ? ['-u', 'postgres'] : []), '-q', ini], {
        stdio: 'ignore',
      });
      await waitFor(() => accepts(port), 'PgBouncer to listen', 15_000);
      // The host's own settings for PgBouncer's transaction mode: no prepared statements.
      sql = postgres({
        host: '127.0.0.1',
        port,
        database: 'test',
        user: 'postgres',
        prepare: false,
        max: 4,
      });
      pool = new Pool({ connectionString: databaseUrl, max: 2 });
    }, 30_000);

    afterAll(async () => {
      for (const table of tables) {
        await pool?.query(
          `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
        );
      }
      await Promise.all([sql?.end({ timeout: 5 }), pool?.end()]);
      bouncer?.kill('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    });

    describeStoreConformance({ describe, it }, 'postgresStore through PgBouncer', {
      create: () => freshStore(),
      destroy: (store) => store.close(),
      // The silent server in PgBouncer's place, with the host's settings for it.
      silent: onSilentPostgresJs((client) => postgresStore({ client, readyTimeout: 300 }), {
        prepare: false,
      }),
    });

    describeOutboxConformance({ describe, it }, 'postgresStore through PgBouncer', {
      create: () => freshStore(),
      // Another instance of the service, straight to the server: the same tables.
      createPeer: (store) => postgresStore({ client: pool!, table: store.table.slice(1, -1) }),
      destroy: (store) => store.close(),
    });

    it('cancels a statement blocked by a held lock through PgBouncer, and it never commits', async () => {
      const store = await freshStore();
      const lock = await lockTable(databaseUrl ?? '', store.table);
      try {
        const controller = new AbortController();
        const pending = store.insert(storeRecord({ id: 1n, name: 'x' }), {
          principal,
          signal: controller.signal,
        });
        const waiting = () => lockWaiters(pool, `INSERT INTO ${store.table} %`);
        await waitFor(async () => (await waiting()).length === 1, 'the blocked insert');
        controller.abort(new Error('store time-out'));
        await expect(pending).rejects.toThrow('store time-out');
        // PgBouncer forwarded the cancel to the server connection, while the lock is still held.
        await waitFor(async () => (await waiting()).length === 0, 'the cancel');
        await store.close();
      } finally {
        await lock.release();
      }
      const { rows } = await pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${store.table}`,
      );
      expect(rows[0]?.n).toBe(0);
    });
  },
);

function findPgBouncer(): string | undefined {
  for (const candidate of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // not there
    }
  }
  return undefined;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import {
  createPlantService,
  isPlantServiceError,
  type PlantStore,
  type Principal,
  type StoreContext,
} from '@plantstore/core';
import {
  serviceUrl,
  silentStoreOn,
  storeRecord,
  type SilentStoreOptions,
} from '@plantstore/core/testing';
import { Client, Pool } from 'pg';
import postgres from 'postgres';
import {
  postgresStore,
  type PGliteLike,
  type PostgresClient,
  type PostgresStore,
} from '../src/index';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * `DATABASE_URL` for a suite of this file, or `undefined` to skip it (a failing test instead under
 * `PLANTSTORE_REQUIRE_SERVICES=1`).
 */
export function databaseUrlFor(suite: string): string | undefined {
  return serviceUrl({ it }, 'DATABASE_URL', suite, 'postgres://postgres@127.0.0.1:5432/test');
}

/** A table name no other test file or run uses. */
export function uniqueTable(purpose: string): string {
  return `plantstore_${purpose}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** The pool a server suite shares, and the tables its tests made, dropped after it. */
export interface SuiteDatabase {
  /** The suite's pool (20 connections), made before its first test and ended after its last. */
  readonly pool: Pool;
  /** The names of the tables to drop after the suite; a test adds the ones it makes. */
  readonly tables: string[];
  /** A pool of the test's own choosing; idle clients a test kills do not end the run. */
  readonly newPool: (options?: ConstructorParameters<typeof Pool>[0]) => Pool;
}

/**
 * The set-up every server suite of this package shares: call it inside the suite's `describe`. It
 * registers the suite's `beforeAll` and `afterAll`.
 */
export function suiteDatabase(databaseUrl: string | undefined): SuiteDatabase {
  let pool: Pool | undefined;
  const tables: string[] = [];
  const newPool = (options: ConstructorParameters<typeof Pool>[0] = {}): Pool => {
    const created = new Pool({ connectionString: databaseUrl, ...options });
    created.on('error', () => undefined); // idle clients killed by a test must not end the run
    return created;
  };
  beforeAll(() => {
    pool = newPool({ max: 20 });
  });
  afterAll(async () => {
    if (pool === undefined) return;
    // ensureSchema() makes the outbox's two tables beside each plants table.
    for (const table of tables) {
      await pool.query(
        `DROP TABLE IF EXISTS "${table}", "${table}_events", "${table}_events_lease"`,
      );
    }
    await pool.end();
  });
  return {
    get pool() {
      if (pool === undefined) throw new Error('The suite pool is made in beforeAll.');
      return pool;
    },
    tables,
    newPool,
  };
}

/** A port on 127.0.0.1 where nothing listens: a server that is gone. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A pool whose server is gone: a port on 127.0.0.1 where nothing listens. */
export async function deadPool(): Promise<Pool> {
  const dead = new Pool({
    host: '127.0.0.1',
    port: await closedPort(),
    user: 'postgres',
    database: 'test',
    connectionTimeoutMillis: 2_000,
  });
  dead.on('error', () => undefined);
  return dead;
}

/** Holds an ACCESS EXCLUSIVE lock on `table`, from a connection of its own, until `release`. */
export async function lockTable(
  databaseUrl: string,
  table: string,
): Promise<{ release(): Promise<void> }> {
  const locker = new Client({ connectionString: databaseUrl });
  await locker.connect();
  await locker.query('BEGIN');
  await locker.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return {
    release: async () => {
      await locker.query('ROLLBACK');
      await locker.end();
    },
  };
}

/** Pids of backends whose active statement, matching the LIKE pattern `query`, waits for a lock. */
export async function lockWaiters(pool: Pool, query: string): Promise<number[]> {
  const { rows } = await pool.query<{ pid: number }>(
    `SELECT pid FROM pg_stat_activity
     WHERE state = 'active' AND wait_event_type = 'Lock' AND query LIKE $1`,
    [query],
  );
  return rows.map((row) => row.pid);
}

/**
 * An in-memory PGlite and one on disk in a temporary folder, opened before the calling file's tests
 * and closed (the folder removed) after them.
 */
export function pglitesOfThisFile(prefix: string): {
  readonly memory: PGlite;
  readonly onDisk: PGlite;
} {
  // Filled in by beforeAll, as the files' own `let memory: PGlite` were: read them in tests only.
  const databases = {} as { memory: PGlite; onDisk: PGlite };
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
    databases.memory = new PGlite();
    databases.onDisk = new PGlite(join(dataDir, 'shared'));
    await Promise.all([databases.memory.waitReady, databases.onDisk.waitReady]);
    // Starting two WASM PostgreSQL instances takes seconds of CPU: on a shared, busy machine it may
    // take far longer than the default hook time-out, and nothing here is about start-up speed.
  }, 180_000);
  afterAll(async () => {
    await Promise.all([databases.memory?.close(), databases.onDisk?.close()]);
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });
  return databases;
}

/**
 * Opens a PGlite on a new data directory for `before`, closes it, and opens the directory again for
 * `after`: what a restart of the process keeps. Each database is closed whatever its step does, and
 * the directory removed at the end.
 */
export async function acrossRestart(
  before: (db: PGlite) => Promise<void>,
  after: (db: PGlite) => Promise<void>,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-restart-'));
  try {
    for (const step of [before, after]) {
      const db = new PGlite(dir);
      try {
        await step(db);
      } finally {
        await db.close();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A fixture of test/fixtures running in a child process, and its stdout as lines. */
export interface FixtureProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: AsyncIterator<string>;
  /** The first line it wrote: what it says when it is ready. */
  readonly first: string;
}

/** Runs `test/fixtures/<name>.ts` under tsx with `env`, its stderr prefixed with its name. */
export async function spawnFixture(name: string, env: NodeJS.ProcessEnv): Promise<FixtureProcess> {
  const child = spawn(
    process.execPath,
    ['--import', tsxLoader(), fileURLToPath(new URL(`fixtures/${name}.ts`, import.meta.url))],
    {
      env: {
        ...process.env,
        ...env,
        TSX_TSCONFIG_PATH: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
      },
      stdio: 'pipe',
    },
  );
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[${name}] ${chunk.toString()}`));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = await lines.next();
  return { child, lines, first: String(first.value) };
}

/** tsx, to run a child process from source; the examples have it, and so may this package one day. */
export function tsxLoader(): string {
  const from = [
    import.meta.url,
    new URL('../../../examples/custom-storage/package.json', import.meta.url).href,
  ];
  for (const base of from) {
    try {
      return pathToFileURL(createRequire(base).resolve('tsx')).href;
    } catch {
      // try the next place
    }
  }
  throw new Error('tsx is not installed where this test can find it');
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it is true, failing after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/**
 * A plant service on `store` with a short store time-out, recording the ids `onCreated` was told
 * about and the codes `onRejected` was, with a helper that posts `{ id, name: 'plant <id>' }` with a
 * valid token and resolves to the status.
 */
export function recordingService(store: PlantStore, storeTimeout: number) {
  const created: bigint[] = [];
  const rejected: string[] = [];
  const service = createPlantService({
    store,
    storeTimeout,
    // The 503s are the tests' point, recorded by onRejected: the default log would only be noise.
    logger: false,
    auth: {
      verify: (token) =>
        Promise.resolve(
          token === 'good' ? { subject: 'gardener', scopes: [], claims: {} } : undefined,
        ),
    },
    onCreated: (plant) => {
      created.push(plant.id);
    },
    onRejected: (error) => {
      rejected.push(error.code);
    },
  });
  const post = async (id: number): Promise<number> => {
    const response = await service.fetch(
      new Request('http://host/plants', {
        method: 'POST',
        headers: { authorization: 'Bearer good', 'content-type': 'application/json' },
        body: JSON.stringify({ id, name: `plant ${id}` }),
      }),
    );
    await response.body?.cancel();
    return response.status;
  };
  return { created, rejected, post };
}

/** The principal the store tests insert as. */
export const principal: Principal = { subject: 'gardener', scopes: [], claims: {} };

/** A store context for `principal`, with a signal that fires when the test says. */
export function context(
  signal: StoreContext['signal'] = new AbortController().signal,
): StoreContext {
  return { principal, signal };
}

/**
 * An insert of plant 1 started on a store whose table is locked, returned once the server shows it
 * waiting for the lock (`waiting` lists the waiting backends); abort it with its `controller`.
 */
export async function blockedInsert(
  store: PlantStore,
  waiting: () => Promise<number[]>,
): Promise<{ readonly pending: Promise<unknown>; readonly controller: AbortController }> {
  const controller = new AbortController();
  const pending = store.insert(storeRecord({ id: 1n, name: 'x' }), context(controller.signal));
  await waitFor(async () => (await waiting()).length === 1, 'the blocked insert');
  return { pending, controller };
}

/** The ends of the int64 range. */
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Resolves to a code and status when `work` rejects with a Plantstore error, else the error. */
export async function failureOf(work: Promise<unknown>): Promise<unknown> {
  const error: unknown = await work.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  return isPlantServiceError(error) ? { status: error.status, code: error.code, error } : error;
}

/**
 * The causes of a store's refusals on a server that is gone: its insert and its `ready()` each
 * answer 503 `store_unavailable`, asserted here; the caller asserts what its driver puts in the cause.
 */
export async function refusalCauses(
  store: PlantStore & { ready(): Promise<void> },
): Promise<unknown[]> {
  const causes: unknown[] = [];
  for (const attempt of [
    store.insert(storeRecord({ id: 1n, name: 'x' }), context()),
    store.ready(),
  ]) {
    const failure = await failureOf(attempt);
    expect(failure).toMatchObject({ status: 503, code: 'store_unavailable' });
    causes.push((failure as { error: Error }).error.cause);
  }
  return causes;
}

/**
 * A plant store on a new table, its schema made (through `schemaClient` when given: a client with a
 * short `statement_timeout` should not run the DDL); the table is added to `tables` for the suite's
 * clean-up.
 */
export async function storeOnNewTable(
  client: PostgresClient,
  tables: string[],
  table = uniqueTable('server'),
  schemaClient: PostgresClient = client,
): Promise<PostgresStore> {
  tables.push(table);
  const store = postgresStore({ client, table });
  await (
    schemaClient === client ? store : postgresStore({ client: schemaClient, table })
  ).ensureSchema();
  return store;
}

/** How many rows the store's table holds, read through `pool`. */
export async function rowsIn(pool: Pool, store: PostgresStore): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${store.table}`);
  return rows[0]?.n ?? -1;
}

/**
 * Posts a create that waits behind a lock held on the store's table past a 300 ms store time-out,
 * and expects what a single connection must give: 503 `store_timeout`, the statement cancelled on
 * the server while the lock is still held, then the client's retry created (200) and one row.
 */
export async function expectTimedOutCreateCancelled(
  databaseUrl: string,
  pool: Pool,
  store: PostgresStore,
): Promise<void> {
  const { created, rejected, post } = recordingService(store, 300);
  const waiting = () => lockWaiters(pool, `INSERT INTO ${store.table} %`);
  const lock = await lockTable(databaseUrl, store.table);
  try {
    expect(await post(1)).toBe(503);
    expect(rejected).toEqual(['store_timeout']);
    await waitFor(async () => (await waiting()).length === 0, 'the cancel');
  } finally {
    await lock.release();
  }
  expect(await post(1)).toBe(200);
  expect(created).toEqual([1n]);
  expect(await rowsIn(pool, store)).toBe(1);
}

/**
 * Inserts while a lock is held on the store's table, on a client whose server-side
 * `statement_timeout` is shorter than the test: expects 503 `store_timeout` with SQLSTATE 57014 as
 * its cause, and no row.
 */
export async function expectStatementTimeout(
  databaseUrl: string,
  pool: Pool,
  store: PostgresStore,
): Promise<void> {
  const lock = await lockTable(databaseUrl, store.table);
  try {
    const failure = await failureOf(store.insert(storeRecord({ id: 1n, name: 'x' }), context()));
    expect(failure).toMatchObject({ status: 503, code: 'store_timeout' });
    expect((failure as { error: Error }).error.cause).toMatchObject({ code: '57014' });
  } finally {
    await lock.release();
  }
  expect(await rowsIn(pool, store)).toBe(0);
}

/** The lifecycle cases' silent store on a pg Pool (see `silentStoreOn` of the kit). */
export function onSilentPool<S extends object>(build: (pool: Pool) => S): SilentStoreOptions<S> {
  const open = ({ host, port }: { host: string; port: number }): Pool => {
    const pool = new Pool({ host, port, user: 'postgres', database: 'test', max: 1 });
    pool.on('error', () => undefined);
    return pool;
  };
  return silentStoreOn(open, (pool) => pool.end(), build);
}

/**
 * The lifecycle cases' silent store on the postgres client, with the host's `options` (PgBouncer's
 * `prepare: false`, say); see `silentStoreOn` of the kit.
 */
export function onSilentPostgresJs<S extends object>(
  build: (sql: postgres.Sql) => S,
  options: postgres.Options<Record<string, postgres.PostgresType>> = {},
): SilentStoreOptions<S> {
  const open = ({ host, port }: { host: string; port: number }): postgres.Sql =>
    postgres({ ...options, host, port, user: 'postgres', database: 'test', max: 1 });
  // The silent server has dropped the connection, still in its start-up: nothing to wait for.
  const end = (sql: postgres.Sql) => sql.end({ timeout: 0 }).catch(() => undefined);
  return silentStoreOn(open, end, build);
}

/**
 * The lifecycle cases' silent store on PGlite, which speaks no TCP: `build` on an instance that
 * never becomes ready and never answers a query, as a PGlite stuck opening its data directory.
 */
export function onSilentPglite<S extends object>(
  build: (db: PGliteLike) => S,
): SilentStoreOptions<S> {
  const never = new Promise<never>(() => undefined);
  return { create: () => build({ waitReady: never, query: () => never }) };
}

import { storeRecord } from '@plantstore/core/testing';
import mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { expectReadyRefusedOnceSilent } from '../../../tools/reliability/src/faults/silent-ready';
import { startTcpProxy, type TcpProxy } from '../../../tools/reliability/src/faults/tcp-proxy';
import { startCappedProxy, type CappedProxy } from './capped-proxy';
import { type MysqlClient, mysqlReplayStore, mysqlStore, type MysqlStore } from '../src/index';
import * as services from './services';
import type { Answer, TestPlant } from './services';

const { callbackPool, databaseOfThisFile, delay, mysqlUrlFor, plantService, promisePool } =
  services;

const url = mysqlUrlFor('the MySQL store fault scenarios');
const STORE_TIMEOUT = 1_000;
const UNAVAILABLE = { error: 503, message: 'The service is temporarily unavailable; retry later.' };

/** Plants with ids past 2^53 and at the int64 ends, names with a 4-byte character. */
function plantsOf(space: number, count: number): TestPlant[] {
  return Array.from({ length: count }, (_, index) => ({
    id: index === 0 ? -(2n ** 63n) + BigInt(space) : 2n ** 53n + BigInt(space * 100_000 + index),
    name: `plant ${space}/${index} 🌿`,
    tag: index % 2 === 0 ? `tag ${index}` : undefined,
  }));
}

/** Retries a post while it answers 503, as a client honouring Retry-After would (without waiting 1 s). */
async function untilSettled(post: () => Promise<Answer>, attempts: Answer[]): Promise<Answer> {
  for (;;) {
    const answer = await post();
    attempts.push(answer);
    if (answer.status !== 503) return answer;
    await delay(50);
  }
}

describe.skipIf(url === undefined)('mysqlStore under faults, on MariaDB', () => {
  const database = databaseOfThisFile(url);
  const admin = (): mysqlPromise.Pool => database.pool;

  /** A store on a table of its own, on `client` (default: a promise Pool of its own, ended after). */
  const storeOn = async (client?: MysqlClient): Promise<MysqlStore> => {
    const own = client ?? promisePool(url ?? '', { connectionLimit: 10 });
    if (client === undefined) onTestFinished(() => (own as mysqlPromise.Pool).end());
    const store = mysqlStore({ client: own, table: database.newTable('faults') });
    await store.ensureSchema();
    onTestFinished(() => store.close());
    return store;
  };

  const rowsOf = async (store: MysqlStore) => {
    const [rows] = await admin().query(
      `SELECT CAST(id AS CHAR) AS id, CAST(name AS BINARY) AS name, CAST(tag AS BINARY) AS tag FROM ${store.table}`,
    );
    return new Map(
      (rows as { id: string; name: Buffer; tag: Buffer | null }[]).map((row) => [
        BigInt(row.id),
        { name: row.name.toString('utf8'), tag: row.tag?.toString('utf8') },
      ]),
    );
  };

  /** Inserts of the store still running on the server, by their text (which may start with a time limit). */
  const runningInserts = async (store: MysqlStore): Promise<number> => {
    const [rows] = await admin().query(
      'SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST ' +
        "WHERE ID <> CONNECTION_ID() AND INFO LIKE '%INSERT INTO %' AND INFO LIKE ?",
      [`%${store.table}%`],
    );
    return Number((rows as { n: number }[])[0]?.n ?? -1);
  };

  /** Every answer is 200, 409 or 503 with Retry-After and the generic message; each 200 has its row. */
  const expectOnly200409503 = (answers: readonly Answer[]) => {
    for (const answer of answers) {
      expect([200, 409, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.retryAfter).toBe('1');
        expect(JSON.parse(answer.body)).toEqual(UNAVAILABLE);
      }
    }
  };

  describe('the server unreachable', () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      const target = new URL(url ?? '');
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 3306) });
    });
    afterAll(() => proxy.close());

    /** A store on a callback Pool of `connectionLimit` through the proxy, ended after the test. */
    const storeThroughProxy = async (connectionLimit: number): Promise<MysqlStore> => {
      const through = new URL(url ?? '');
      through.port = String(proxy.port);
      const pool = callbackPool(through.href, { connectionLimit });
      onTestFinished(() => new Promise<void>((done) => pool.end(() => done())));
      const store = mysqlStore({ client: pool, table: database.newTable('faults') });
      await store.ensureSchema();
      return store;
    };

    it('answers 200 or 503 with Retry-After while it is refused and black-holed under load, and recovers within 5 s of its return', async (context) => {
      const through = new URL(url ?? '');
      through.port = String(proxy.port);
      const pool = promisePool(through.href, { connectionLimit: 10, connectTimeout: 500 });
      onTestFinished(() => pool.end());
      const store = await storeOn(pool);
      const { post } = plantService(store, STORE_TIMEOUT);
      // The load runs until both outages are over, however fast the machine is that day: a fixed
      // number of creates once finished before the first outage began, and saw no 503.
      const supply = plantsOf(1, 20_000);
      const plants: TestPlant[] = [];
      const attempts: Answer[] = [];
      let outagesOver = false;
      const worker = async (): Promise<void> => {
        while (!outagesOver && plants.length < supply.length) {
          const plant = supply[plants.length] as TestPlant;
          plants.push(plant);
          expect((await untilSettled(() => post(plant), attempts)).status).toBe(200);
        }
      };
      const load = Promise.all(Array.from({ length: 16 }, worker));
      let recoveryMs = 0;
      for (const mode of ['refuse', 'blackhole'] as const) {
        await delay(300);
        await proxy.setMode(mode);
        await delay(800);
        await proxy.setMode('forward');
        const back = Date.now();
        const probe = plantsOf(2 + recoveryMs, 1)[0] as TestPlant;
        await untilSettled(() => post({ ...probe, id: probe.id + BigInt(back % 1000) }), []);
        recoveryMs = Math.max(recoveryMs, Date.now() - back);
      }
      outagesOver = true;
      await load;
      const statuses = attempts.map((answer) => answer.status);
      await context.annotate(
        `[mysql faults] unreachable under load: ${attempts.length} answers, ` +
          `${statuses.filter((status) => status === 503).length} × 503, ` +
          `back to 200 within ${recoveryMs} ms of the server's return`,
      );
      expectOnly200409503(attempts);
      expect(statuses).toContain(503);
      expect(recoveryMs).toBeLessThan(5_000);
      const rows = await rowsOf(store);
      for (const plant of plants) {
        expect(rows.get(plant.id)).toEqual({ name: plant.name, tag: plant.tag });
      }
    }, 120_000);

    it('drops a connection that went silent under a timed-out statement within 5 s: the pool serves again and close() settles', async () => {
      const store = await storeThroughProxy(2);
      const { post } = plantService(store, STORE_TIMEOUT);
      const [first, second, third, fourth] = plantsOf(9, 4) as [TestPlant, ...TestPlant[]];
      expect((await Promise.all([post(first), post(second!)])).map((a) => a.status)).toEqual([
        200, 200,
      ]);
      // Both pooled connections go silent, as after a fail-over; new ones reach the server.
      proxy.freezeOpen();
      const silent = await Promise.all([post(third!), post(fourth!)]);
      expect(silent.map((answer) => answer.status)).toEqual([503, 503]);
      const since = Date.now();
      const attempts: Answer[] = [];
      expect((await untilSettled(() => post(third!), attempts)).status).toBe(200);
      expect(Date.now() - since).toBeLessThan(9_000);
      await store.close();
    }, 30_000);

    it('kills a statement whose connection was reset while it waited on a lock: nothing is committed after the 503', async () => {
      const store = await storeThroughProxy(2);
      const { post } = plantService(store, 3_000);
      const [plant] = plantsOf(11, 1) as [TestPlant];
      const locker = await admin().getConnection();
      try {
        await locker.query(`LOCK TABLES ${store.table} WRITE`);
        const answer = post(plant);
        while ((await runningInserts(store)) === 0) await delay(20);
        proxy.cutOpen();
        expect((await answer).status).toBe(503);
        // KILL QUERY is answered once the kill is set; the statement leaves the process list when
        // its thread wakes to it, still under the lock, which a busy server may take a moment to do.
        await expect.poll(() => runningInserts(store), { timeout: 5_000 }).toBe(0);
      } finally {
        await locker.query('UNLOCK TABLES');
        locker.release();
      }
      await delay(200);
      expect((await rowsOf(store)).size).toBe(0);
      await store.close();
    }, 30_000);

    it('answers ready() 503 within 5 s when its pooled connection went silent', async () => {
      const store = await storeThroughProxy(1);
      await expectReadyRefusedOnceSilent(store, proxy);
      await store.close();
    }, 30_000);

    it("answers the replay store's ready() 503 within 5 s when its pooled connection went silent", async () => {
      const through = new URL(url ?? '');
      through.port = String(proxy.port);
      const pool = callbackPool(through.href, { connectionLimit: 1 });
      onTestFinished(() => new Promise<void>((done) => pool.end(() => done())));
      const replayStore = mysqlReplayStore({ client: pool, table: database.newTable('replay') });
      await expectReadyRefusedOnceSilent(replayStore, proxy, 'replay_store_unavailable');
      await replayStore.close();
    }, 30_000);
  });

  it('answers 503 when the table is locked past the time-out, kills the statements, commits none of them afterwards, and recovers', async () => {
    const store = await storeOn();
    const { post, errors } = plantService(store, STORE_TIMEOUT);
    const plants = plantsOf(3, 6);
    const locker = await admin().getConnection();
    let answers: Answer[];
    try {
      await locker.query(`LOCK TABLES ${store.table} WRITE`);
      answers = await Promise.all(plants.map((plant) => post(plant)));
      // Polled, not read once after a pause: a killed statement leaves the process list when its
      // thread wakes to the kill, which a busy server may take a moment to do (still under the lock).
      await expect.poll(() => runningInserts(store), { timeout: 5_000 }).toBe(0);
    } finally {
      await locker.query('UNLOCK TABLES');
      locker.release();
    }
    await delay(500);
    const afterUnlock = (await rowsOf(store)).size;
    const settled = await Promise.all(plants.map((plant) => untilSettled(() => post(plant), [])));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe('1');
    }
    expect(afterUnlock).toBe(0);
    expect(settled.map((answer) => answer.status)).toEqual(plants.map(() => 200));
    expect(new Set(errors)).toEqual(new Set(['store_timeout']));
  });

  it('answers 503 when a row lock is held past the time-out, and the insert is never committed after it', async () => {
    const store = await storeOn();
    const { post } = plantService(store, STORE_TIMEOUT);
    const [plant] = plantsOf(4, 1) as [TestPlant];
    const locker = await admin().getConnection();
    let answer: Answer;
    try {
      await locker.query('BEGIN');
      await locker.query(
        `INSERT INTO ${store.table} (id, name) VALUES (${plant.id}, 'held by the test')`,
      );
      answer = await post(plant);
      // The test holds its row idle, and ours was killed: it leaves once its thread wakes to the kill.
      await expect.poll(() => runningInserts(store), { timeout: 5_000 }).toBe(0);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    await delay(500);
    expect(answer.status).toBe(503);
    expect((await rowsOf(store)).size).toBe(0);
    expect((await post(plant)).status).toBe(200);
  });

  it('kills a timed-out statement on a single connection without touching the next one', async () => {
    const connection = await mysqlPromise.createConnection({ uri: url ?? '' });
    onTestFinished(() => connection.end());
    const store = await storeOn(connection);
    const { post } = plantService(store, STORE_TIMEOUT);
    const [first, second] = plantsOf(7, 2) as [TestPlant, TestPlant];
    const locker = await admin().getConnection();
    let timedOut: Answer;
    try {
      await locker.query(`LOCK TABLES ${store.table} WRITE`);
      timedOut = await post(first);
      // The kill goes out on a connection of its own, opened at the time-out: a lock released in
      // the milliseconds before it lands lets the statement finish (docs/stores/choosing-a-store.md says so),
      // so the lock is held until the statement has left.
      await expect.poll(() => runningInserts(store), { timeout: 5_000 }).toBe(0);
    } finally {
      await locker.query('UNLOCK TABLES');
      locker.release();
    }
    // Sent at once, behind the kill: it must run, not be stopped by a kill meant for the other.
    const next = await post(second);
    expect([timedOut.status, next.status]).toEqual([503, 200]);
    expect([...(await rowsOf(store)).keys()]).toEqual([second.id]);
  });

  it('answers 503 when the pool is exhausted, waiting or not, and 200 once a connection is free', async () => {
    const waiting = callbackPool(url ?? '', { connectionLimit: 1 });
    const refusing = callbackPool(url ?? '', { connectionLimit: 1, waitForConnections: false });
    onTestFinished(() => new Promise<void>((done) => waiting.end(() => done())));
    onTestFinished(() => new Promise<void>((done) => refusing.end(() => done())));
    const table = database.newTable('faults');
    for (const pool of [waiting, refusing]) {
      const store = mysqlStore({ client: pool, table });
      await store.ensureSchema();
      const { post } = plantService(store, STORE_TIMEOUT);
      const held = await new Promise<{ release(): void }>((resolve, reject) =>
        pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))),
      );
      const answers = await Promise.all(plantsOf(5, 4).map((plant) => post(plant)));
      held.release();
      expectOnly200409503(answers);
      expect(answers.map((answer) => answer.status)).toEqual([503, 503, 503, 503]);
      const settled = await Promise.all(
        plantsOf(5, 4).map((plant) => untilSettled(() => post(plant), [])),
      );
      expect(settled.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
      await store.close();
    }
  });

  it('answers 503 store_timeout for a lock-wait time-out of the server, and 500 for a missing table', async () => {
    const pool = callbackPool(url ?? '', { connectionLimit: 2 });
    pool.on('connection', (connection) => {
      connection.query('SET SESSION innodb_lock_wait_timeout = 1');
    });
    onTestFinished(() => new Promise<void>((done) => pool.end(() => done())));
    const store = await storeOn(pool);
    const { post, errors } = plantService(store, 10_000);
    const [plant] = plantsOf(6, 1) as [TestPlant];
    const locker = await admin().getConnection();
    let answer: Answer;
    try {
      await locker.query('BEGIN');
      await locker.query(`INSERT INTO ${store.table} (id, name) VALUES (${plant.id}, 'held')`);
      answer = await post(plant);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
    }
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('1');
    const missing = mysqlStore({ client: pool, table: services.uniqueTable('missing') });
    const broken = plantService(missing, 10_000);
    expect((await broken.post(plant)).status).toBe(500);
    expect(errors).toEqual(['store_timeout']);
    expect(broken.errors).toEqual(['store_failed']);
  });

  // Issue #47, S4-1 and S4-2: a kill needs a connection of its own and names a connection id, so it
  // can be refused, or land on another thread; the server's own time limit ends the insert anyway.
  describe('a timed-out insert whose KILL QUERY cannot reach it', () => {
    /** A store on a Pool of 1 through `proxy`, ended after the test. */
    const storeBehind = async (proxy: CappedProxy): Promise<MysqlStore> => {
      onTestFinished(() => proxy.close());
      const through = new URL(url ?? '');
      through.port = String(proxy.port);
      const pool = callbackPool(through.href, { connectionLimit: 1 });
      onTestFinished(() => new Promise<void>((done) => pool.end(() => done())));
      const store = mysqlStore({ client: pool, table: database.newTable('unkillable') });
      await store.ensureSchema();
      onTestFinished(() => store.close());
      return store;
    };
    const server = () => {
      const target = new URL(url ?? '');
      return { host: target.hostname, port: Number(target.port || 3306) };
    };

    /**
     * Runs `timeOut` while the store's table is locked, then checks that the insert left the server
     * with the lock still held (nothing else could end it) and that no row exists once it is released.
     */
    const underLock = async (store: MysqlStore, timeOut: () => Promise<void>) => {
      const locker = await admin().getConnection();
      let left: boolean;
      try {
        await locker.query(`LOCK TABLES ${store.table} WRITE`);
        await timeOut();
        left = await expect
          .poll(() => runningInserts(store), { timeout: 3_000 })
          .toBe(0)
          .then(
            () => true,
            () => false,
          );
      } finally {
        await locker.query('UNLOCK TABLES');
        locker.release();
      }
      await delay(300);
      expect({ left, rows: (await rowsOf(store)).size }).toEqual({ left: true, rows: 0 });
    };

    it('answers 503 and commits nothing after the lock is released when the server refuses the kill its connection (1040)', async () => {
      const store = await storeBehind(await startCappedProxy(server(), { admit: 1 }));
      const { post, errors } = plantService(store, 300);
      const [plant] = plantsOf(12, 1) as [TestPlant];
      await underLock(store, async () => {
        expect((await post(plant)).status).toBe(503);
      });
      expect(errors).toEqual(['store_timeout']);
      expect((await post(plant)).status).toBe(200);
    }, 30_000);

    it('retries a refused kill while the statement runs, so that it lands once the server admits it', async () => {
      const proxy = await startCappedProxy(server(), { admit: 1 });
      const store = await storeBehind(proxy);
      const [{ id, name }] = plantsOf(13, 1) as [TestPlant];
      const principal = { subject: 'gardener', scopes: [], claims: {} };
      await underLock(store, async () => {
        // A signal the service did not make carries no deadline for the server: only a kill ends it.
        const signal = AbortSignal.timeout(300);
        await expect(
          store.insert(storeRecord({ id, name }), { principal, signal }),
        ).rejects.toThrow();
        await delay(500);
        proxy.admit(2);
      });
    }, 30_000);

    it.each([
      ['an id no thread has (1094 is no confirmation)', false],
      ["another thread's id, whose query is left alone", true],
    ])(
      'answers 503 and commits nothing when the proxy announces %s',
      async (_what, victimised) => {
        const victim = await admin().getConnection();
        onTestFinished(() => victim.release());
        const [[idRow]] = (await victim.query('SELECT CONNECTION_ID() AS id')) as unknown as [
          { id: number }[],
        ];
        const connectionId = victimised ? Number(idRow?.id) : 2 ** 31 - 7;
        const store = await storeBehind(
          await startCappedProxy(server(), { admit: 8, connectionId }),
        );
        const { post } = plantService(store, 300);
        const [plant] = plantsOf(victimised ? 14 : 15, 1) as [TestPlant];
        const sleeping = victim.query('SELECT SLEEP(2) AS interrupted');
        await underLock(store, async () => {
          expect((await post(plant)).status).toBe(503);
        });
        // SLEEP answers 1 when its query was killed.
        const [[slept]] = (await sleeping) as unknown as [{ interrupted: number }[]];
        expect(slept?.interrupted).toBe(0);
      },
      30_000,
    );
  });
});

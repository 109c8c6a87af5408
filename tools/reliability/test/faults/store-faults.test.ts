import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { plantBody, postPlant, type Reply } from '@plantstore/http-suite/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHostHealth } from '../../src/check/host-health';
import type { SentPlant } from '../../src/check/nothing-lost';
import { untilSettled } from '../../src/client/until-settled';
import { startBackendKiller } from '../../src/faults/backend-killer';
import { startTcpProxy, type TcpProxy } from '../../src/faults/tcp-proxy';
import { ADAPTERS } from '../../src/host/adapters';
import type { HostProcess } from '../../src/host/host-process';
import {
  attemptCounts,
  exchangesOf,
  runCreateLoad,
  settledExchanges,
} from '../../src/scenario/create-load';
import { type FaultEnvironment, faultEnvironment } from '../../src/scenario/fault-environment';
import { exactName, exactPlants, spreadId } from '../../src/scenario/exact-plants';
import { expectNothingLost, GUARD_CONNECTIONS, scenarioDatabase } from './fault-setup';

const databaseUrl = scenarioDatabase('the store fault scenarios');

const STORE_TIMEOUT = 1_000;
const CONNECT_TIMEOUT = 500;
const GENERIC_500 = 'The plant could not be created because of an internal error.';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe.skipIf(databaseUrl === undefined)('store faults', () => {
  let env: FaultEnvironment;
  let proxy: TcpProxy;

  beforeAll(async () => {
    env = await faultEnvironment(databaseUrl as string);
    const target = new URL(databaseUrl as string);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });

  afterAll(async () => {
    await env?.close();
    await proxy?.close();
  });

  describe.each(ADAPTERS)('%s', (adapter) => {
    const space = 10 * (ADAPTERS.indexOf(adapter) + 1);
    const applicationName = `plantstore-store-faults-${adapter}-${randomUUID().slice(0, 8)}`;
    let host: HostProcess;
    let table: string;

    beforeAll(async () => {
      const throughProxy = new URL(databaseUrl as string);
      throughProxy.host = `127.0.0.1:${proxy.port}`;
      table = await env.newTable(`store_${adapter}`);
      host = await env.startHost(adapter, {
        databaseUrl: throughProxy.href,
        table,
        pool: {
          max: 10,
          connectionTimeoutMillis: CONNECT_TIMEOUT,
          statementTimeout: 5_000,
          applicationName,
          guardConnections: GUARD_CONNECTIONS,
        },
        service: { storeTimeout: STORE_TIMEOUT, retryAfter: 1 },
      });
    });

    it('answers only 200, 409 or 503 with Retry-After while its backends are killed mid-load, and retries converge', async (context) => {
      await env.pool.query(`TRUNCATE "${table}"`);
      const before = await host.gc();
      const agent = new Agent({ keepAlive: true, maxSockets: 32 });
      const killer = startBackendKiller(env.pool, [applicationName], 100);
      const outcomes = await runCreateLoad({
        urls: [host.url],
        token: env.token,
        space,
        workers: 32,
        durationMs: 3_000,
        agent,
      });
      const killed = await killer.stop();
      agent.destroy();
      const counts = attemptCounts(outcomes);
      await context.annotate(
        `[store faults] ${adapter}, backends killed mid-load: ${outcomes.length} ops, ` +
          `${killed} backends killed, attempts ${JSON.stringify(counts)}`,
      );
      expect(killed).toBeGreaterThan(0);
      expect(
        Object.keys(counts).filter((status) => !['200', '409', '503'].includes(status)),
      ).toEqual([]);
      expect(counts['503'] ?? 0).toBeGreaterThan(0);
      expect(outcomes.reduce((sum, outcome) => sum + outcome.missingRetryAfter, 0)).toBe(0);
      await expectNothingLost(env.pool, table, exchangesOf(outcomes));
      expect((await checkHostHealth(host, before)).problems).toEqual([]);
    });

    it('answers 503 with Retry-After while PostgreSQL is unreachable (refused, then black-holed), and recovers when it is back', async (context) => {
      await env.pool.query(`TRUNCATE "${table}"`);
      const before = await host.gc();
      const plants: SentPlant[] = exactPlants(space + 1, 20, 'unreachable').map((plant) => ({
        ...plant,
        tag: 'down',
      }));
      const send = (index: number): Promise<Reply> =>
        postPlant(host.url, env.token, plantBody(plants[index] as SentPlant));
      const timed = async (indexes: number[]) => {
        const started = Date.now();
        const replies = await Promise.all(indexes.map(send));
        return { replies, ms: Date.now() - started };
      };
      await proxy.setMode('refuse');
      const refused = await timed([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await proxy.setMode('blackhole');
      const blackholed = await timed([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
      await proxy.setMode('forward');
      const restored = Date.now();
      const settled = await Promise.all(
        plants.map((_, index) => untilSettled(() => send(index), { pauseMs: 50 })),
      );
      const recoveryMs = Date.now() - restored;
      for (const { replies } of [refused, blackholed]) {
        for (const reply of replies) {
          expect(reply.status).toBe(503);
          expect(reply.headers['retry-after']).toBe('1');
          expect(JSON.parse(reply.text)).toEqual({
            error: 503,
            message: 'The service is temporarily unavailable; retry later.',
          });
        }
      }
      await context.annotate(
        `[store faults] ${adapter}, PostgreSQL unreachable: 10 refused in ${refused.ms} ms, ` +
          `10 black-holed in ${blackholed.ms} ms (connect time-out ${CONNECT_TIMEOUT} ms), ` +
          `all 20 retried to 200 within ${recoveryMs} ms of its return`,
      );
      expect(refused.ms).toBeLessThan(CONNECT_TIMEOUT);
      expect(blackholed.ms).toBeGreaterThanOrEqual(CONNECT_TIMEOUT - 50);
      expect(blackholed.ms).toBeLessThan(STORE_TIMEOUT + 1_000);
      await expectNothingLost(env.pool, table, settledExchanges(plants, settled));
      expect((await checkHostHealth(host, before)).problems).toEqual([]);
    });

    it('answers 503 store_timeout with Retry-After when the store hangs past its time-out, cancels the statements, and recovers', async (context) => {
      await env.pool.query(`TRUNCATE "${table}"`);
      const before = await host.gc();
      const plants: SentPlant[] = exactPlants(space + 2, 6, 'hang');
      const send = (index: number): Promise<Reply> =>
        postPlant(host.url, env.token, plantBody(plants[index] as SentPlant));
      const locker = await env.pool.connect();
      let replies: Reply[];
      let ms: number;
      let stillActive: number;
      try {
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
        const started = Date.now();
        replies = await Promise.all(plants.map((_, index) => send(index)));
        ms = Date.now() - started;
        await sleep(300);
        const { rows } = await env.pool.query<{ active: number }>(
          "SELECT count(*)::int AS active FROM pg_stat_activity WHERE application_name = $1 AND state = 'active'",
          [applicationName],
        );
        stillActive = rows[0]?.active ?? -1;
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
      const settled = await Promise.all(plants.map((_, index) => untilSettled(() => send(index))));
      await context.annotate(
        `[store faults] ${adapter}, store hangs: ${replies.length} requests answered 503 in ${ms} ms ` +
          `(store time-out ${STORE_TIMEOUT} ms); statements still running 300 ms later: ${stillActive}`,
      );
      for (const reply of replies) {
        expect(reply.status).toBe(503);
        expect(reply.headers['retry-after']).toBe('1');
      }
      expect(ms).toBeGreaterThanOrEqual(STORE_TIMEOUT - 50);
      expect(ms).toBeLessThan(STORE_TIMEOUT + 1_500);
      expect(stillActive).toBe(0);
      await expectNothingLost(env.pool, table, settledExchanges(plants, settled));
      expect((await checkHostHealth(host, before)).problems).toEqual([]);
    });

    it('answers 500 with a generic message and calls onError once per request when the store throws', async (context) => {
      await env.pool.query(`TRUNCATE "${table}"`);
      await host.takeErrors();
      const before = await host.gc();
      const trigger = `boom_${table}`.slice(0, 60);
      await env.pool.query(
        `CREATE FUNCTION "${trigger}"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
          `IF NEW.name LIKE 'boom%' THEN RAISE EXCEPTION 'secret internal detail of %', NEW.id; END IF; ` +
          'RETURN NEW; END $$',
      );
      await env.pool.query(
        `CREATE TRIGGER "${trigger}" BEFORE INSERT ON "${table}" FOR EACH ROW EXECUTE FUNCTION "${trigger}"()`,
      );
      const plants: SentPlant[] = Array.from({ length: 20 }, (_, index) => ({
        id: spreadId(space + 3, index),
        name: index % 2 === 0 ? `boom ${index}` : exactName(`fine ${index}`),
      }));
      const jtis = plants.map(() => randomUUID());
      const tokens = await Promise.all(jtis.map((jti) => env.issuer.sign({ jti })));
      const send = (index: number): Promise<Reply> =>
        postPlant(host.url, tokens[index] as string, plantBody(plants[index] as SentPlant));
      let replies: Reply[];
      try {
        replies = await Promise.all(plants.map((_, index) => send(index)));
      } finally {
        await env.pool.query(`DROP FUNCTION "${trigger}"() CASCADE`);
      }
      const recorded = await host.takeErrors();
      const settled = await Promise.all(plants.map((_, index) => untilSettled(() => send(index))));
      replies.forEach((reply, index) => {
        if (index % 2 === 1) {
          expect(reply.status).toBe(200);
          return;
        }
        expect(reply.status).toBe(500);
        expect(JSON.parse(reply.text)).toEqual({ error: 500, message: GENERIC_500 });
        expect(reply.text).not.toMatch(/secret|boom|INSERT|plpgsql/);
      });
      const failing = jtis.filter((_, index) => index % 2 === 0).sort();
      expect(recorded.map((error) => error.jti).sort()).toEqual(failing);
      expect(new Set(recorded.map((error) => error.code))).toEqual(new Set(['store_failed']));
      expect(recorded.every((error) => error.cause.includes('secret internal detail'))).toBe(true);
      await context.annotate(
        `[store faults] ${adapter}, store throws: 10 × 500 (generic message), onError called ` +
          `${recorded.length} times for 10 failing requests; all 20 retried to 200 once it stopped`,
      );
      await expectNothingLost(env.pool, table, settledExchanges(plants, settled));
      expect((await checkHostHealth(host, before)).problems).toEqual([]);
    });

    it('answers 503 when its pool of one connection is held by a blocked statement, and recovers when it is released', async (context) => {
      const smallTable = await env.newTable(`small_${adapter}`);
      const small = await env.startHost(adapter, {
        table: smallTable,
        pool: { max: 1, connectionTimeoutMillis: 300, applicationName: `${applicationName}-small` },
        service: { storeTimeout: 5_000, retryAfter: 1 },
      });
      const before = await small.gc();
      const held: SentPlant = { id: spreadId(space + 4, 0), name: exactName('held'), tag: 'first' };
      const others: SentPlant[] = exactPlants(space + 4, 8, 'waiting', 1);
      const send = (plant: SentPlant) => postPlant(small.url, env.token, plantBody(plant));
      const locker = await env.pool.connect();
      let heldReply: Promise<Reply>;
      let waiting: Reply[];
      let ms: number;
      try {
        await locker.query('BEGIN');
        await locker.query(
          `INSERT INTO "${smallTable}" (id, name) VALUES ($1::bigint, 'held by the test')`,
          [held.id.toString()],
        );
        heldReply = send(held);
        await sleep(300);
        const started = Date.now();
        waiting = await Promise.all(others.map(send));
        ms = Date.now() - started;
      } finally {
        await locker.query('ROLLBACK');
        locker.release();
      }
      const first = await heldReply;
      const settled = await Promise.all(others.map((plant) => untilSettled(() => send(plant))));
      await context.annotate(
        `[store faults] ${adapter}, pool exhausted (max 1, held): 8 waiting requests answered ` +
          `${[...new Set(waiting.map((reply) => reply.status))].join('/')} in ${ms} ms ` +
          `(connect time-out 300 ms); the held request answered ${first.status} once released`,
      );
      for (const reply of waiting) {
        expect(reply.status).toBe(503);
        expect(reply.headers['retry-after']).toBe('1');
      }
      expect(ms).toBeLessThan(2_000);
      expect(first.status).toBe(200);
      await expectNothingLost(env.pool, smallTable, [
        { plant: held, final: first.status, body: first.text, expected: [200] },
        ...settledExchanges(others, settled),
      ]);
      expect((await checkHostHealth(small, before)).problems).toEqual([]);
    });
  });
});

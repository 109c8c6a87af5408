import {
  chunk,
  framingLine,
  openRawConnection,
  plantBody,
  postPlant,
  type RawConnection,
  rawHead,
  send,
} from '@plantstore/http-suite/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkHostHealth } from '../../src/check/host-health';
import type { SentPlant } from '../../src/check/nothing-lost';
import { ADAPTERS } from '../../src/host/adapters';
import type { HostProcess } from '../../src/host/host-process';
import { type FaultEnvironment, faultEnvironment } from '../../src/scenario/fault-environment';
import { exactName, exactPlants, spreadId } from '../../src/scenario/exact-plants';
import { expectNothingLost, scenarioDatabase } from './fault-setup';

const databaseUrl = scenarioDatabase('the client fault scenarios');

/** The route's read time-out, and the server settings docs/reference/reliability.md tells hosts to set. */
const BODY_TIMEOUT = 1_000;
const SERVER = { headersTimeout: 1_500, requestTimeout: 5_000, connectionsCheckingInterval: 250 };
const LIMIT = 16 * 1024;
const KiB = 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the value, or with `undefined` after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([promise, sleep(ms).then(() => undefined)]);
}

describe.skipIf(databaseUrl === undefined)('client faults', () => {
  let env: FaultEnvironment;
  const hosts = new Map<string, { host: HostProcess; table: string }>();

  beforeAll(async () => {
    env = await faultEnvironment(databaseUrl as string);
    await Promise.all(
      ADAPTERS.map(async (adapter) => {
        const table = await env.newTable(`client_${adapter}`);
        const host = await env.startHost(adapter, {
          table,
          service: { bodyTimeout: BODY_TIMEOUT },
          server: SERVER,
        });
        hosts.set(adapter, { host, table });
      }),
    );
  });

  afterAll(() => env?.close());

  beforeEach(async () => {
    await Promise.all(
      [...hosts.values()].map(({ table }) => env.pool.query(`TRUNCATE "${table}"`)),
    );
  });

  const expectNoTrace = (table: string, plants: readonly SentPlant[]) =>
    expectNothingLost(
      env.pool,
      table,
      plants.map((plant) => ({ plant, final: undefined, refused: true })),
    );

  describe.each(ADAPTERS)('%s', (adapter) => {
    const space = 400 + 100 * ADAPTERS.indexOf(adapter);
    const target = () => hosts.get(adapter) as { host: HostProcess; table: string };
    /** The head of `POST /plants` with the valid token, kept open for the body. */
    const head = (framing: number | 'chunked') =>
      rawHead({ host: '127.0.0.1', path: '/plants', token: env.token }, [framingLine(framing)], {
        close: false,
      });

    it('stays healthy, stores nothing and frees the socket when clients abort mid-body', async (context) => {
      const { host, table } = target();
      const before = await host.gc();
      const plants = exactPlants(space, 40, 'aborted');
      const opened = await Promise.all(
        plants.map(async (plant, index) => {
          const body = plantBody(plant);
          const connection = await openRawConnection(host.url);
          // Half announce a length, half are chunked; each sends half its body and goes away.
          const sent =
            index % 2 === 0
              ? head(Buffer.byteLength(body)) + body.slice(0, 20)
              : head('chunked') + chunk(body.slice(0, 20));
          connection.write(sent);
          return { connection, bytes: Buffer.byteLength(sent) };
        }),
      );
      // They go away once the server has read every byte sent, so each request has reached the route
      // however busy the machine is; a fixed pause would let a slow server miss some.
      const sentBytes = opened.reduce((sum, { bytes }) => sum + bytes, before.bytesRead);
      for (let wait = 0; (await host.stats()).bytesRead < sentBytes && wait < 400; wait += 1) {
        await sleep(25);
      }
      await sleep(50);
      for (const { connection } of opened) connection.destroy();
      const health = await checkHostHealth(host, before);
      const after = await host.stats();
      const aborted =
        (after.rejected['body_aborted'] ?? 0) - (before.rejected['body_aborted'] ?? 0);
      await context.annotate(
        `[client faults] ${adapter}, 40 clients aborted mid-body: ${aborted} rejected body_aborted, ` +
          `${after.clientGone - before.clientGone} reported to the host framework as a client gone, ` +
          `${after.errors - before.errors} 5xx, sockets open after: ${health.connections}, ` +
          `health answered in ${health.healthMs} ms`,
      );
      expect(health.problems).toEqual([]);
      expect(after.errors).toBe(before.errors);
      expect(aborted).toBe(plants.length);
      await expectNoTrace(table, plants);
    });

    it('answers 408 at the read time-out to a slow body, closes the connection and frees the socket', async (context) => {
      const { host, table } = target();
      const before = await host.gc();
      const plants = exactPlants(space + 1, 20, 'slow');
      const results = await Promise.all(
        plants.map(async (plant) => {
          const body = plantBody(plant);
          const connection = await openRawConnection(host.url);
          const started = Date.now();
          connection.write(head(Buffer.byteLength(body)) + body.slice(0, 5));
          // One byte every 300 ms: the whole body would take many times the read time-out.
          void connection.trickle(body.slice(5), 300);
          const answer = await within(connection.answered, 5_000);
          const closedAt = await within(connection.closed, 5_000);
          return { answer, started, closedAt, connection };
        }),
      );
      const health = await checkHostHealth(host, before);
      const at = results.map(({ answer, started }) => (answer?.at ?? Number.NaN) - started);
      const closedAfter = results.map(
        ({ answer, closedAt }) => (closedAt ?? Number.NaN) - (answer?.at ?? 0),
      );
      await context.annotate(
        `[client faults] ${adapter}, 20 slow bodies: answered ` +
          `${[...new Set(results.map(({ answer }) => answer?.status))].join('/')} after ` +
          `${Math.min(...at)}–${Math.max(...at)} ms (read time-out ${BODY_TIMEOUT} ms), ` +
          `closed by the server ${Math.max(...closedAfter)} ms after at most; sockets open after: ${health.connections}`,
      );
      for (const { answer, closedAt } of results) {
        expect(answer?.status).toBe(408);
        expect(answer?.head).toMatch(/\r\nconnection: close\r\n/i);
        expect(closedAt).toBeDefined();
      }
      expect(Math.min(...at)).toBeGreaterThanOrEqual(BODY_TIMEOUT - 50);
      expect(Math.max(...at)).toBeLessThan(BODY_TIMEOUT + 1_500);
      expect(health.problems).toEqual([]);
      await expectNoTrace(table, plants);
    });

    it('answers 413 to a body over the limit sent slowly without reading it all, and closes the connection', async (context) => {
      const { host, table } = target();
      const before = await host.gc();
      const statsBefore = await host.stats();
      const plants = exactPlants(space + 2, 5, 'large');
      const intended = 1_024 * KiB;
      const results = await Promise.all(
        plants.map(async (plant) => {
          const connection = await openRawConnection(host.url);
          const started = Date.now();
          connection.write(head('chunked'));
          const opening = `{"id":${plant.id},"name":${JSON.stringify(plant.name)},"pad":"`;
          // 1 KiB every 20 ms: a mebibyte would take 20 s.
          const pieces = [
            chunk(opening),
            ...Array.from({ length: intended / KiB }, () => chunk('x'.repeat(KiB))),
          ];
          void connection.trickle(pieces, 20);
          const answer = await within(connection.answered, 5_000);
          await within(connection.closed, 5_000);
          return { answer, ms: (answer?.at ?? Number.NaN) - started, connection };
        }),
      );
      const afterChunked = await host.stats();
      const declared = await openRawConnection(host.url);
      const declaredStart = Date.now();
      declared.write(head(intended));
      void declared.trickle(
        Array.from({ length: 100 }, () => 'x'.repeat(KiB)),
        20,
      );
      const declaredAnswer = await within(declared.answered, 5_000);
      await within(declared.closed, 5_000);
      const declaredRead = (await host.stats()).bytesRead - afterChunked.bytesRead;
      const health = await checkHostHealth(host, before);
      const sent = results.map(({ connection }) => connection.written);
      const serverRead = (afterChunked.bytesRead - statsBefore.bytesRead) / results.length;
      await context.annotate(
        `[client faults] ${adapter}, 5 chunked bodies of 1 MiB at 50 KiB/s: answered ` +
          `${[...new Set(results.map(({ answer }) => answer?.status))].join('/')} after ` +
          `${Math.max(...results.map(({ ms }) => ms))} ms at most; clients wrote ` +
          `${Math.round(Math.min(...sent) / KiB)}–${Math.round(Math.max(...sent) / KiB)} KiB before the close, ` +
          `the server read about ${Math.round(serverRead / KiB)} KiB per connection (limit 16 KiB); ` +
          `a declared Content-Length of 1 MiB answered ${declaredAnswer?.status} in ` +
          `${(declaredAnswer?.at ?? Number.NaN) - declaredStart} ms, the server reading ${declaredRead} bytes of ` +
          `the ${Math.round(declared.written / KiB)} KiB written`,
      );
      for (const { answer, connection } of results) {
        expect(answer?.status).toBe(413);
        expect(answer?.head).toMatch(/\r\nconnection: close\r\n/i);
        expect(connection.isClosed).toBe(true);
        expect(connection.written).toBeLessThan(intended / 4);
      }
      expect(serverRead).toBeLessThan(LIMIT + 64 * KiB);
      expect(declaredAnswer?.status).toBe(413);
      expect(declared.isClosed).toBe(true);
      expect(declaredRead).toBeLessThan(LIMIT);
      expect(health.problems).toEqual([]);
      await expectNoTrace(table, plants);
    });

    it('keeps answering its own health route and the plant route while 1,000 connections send nothing, and closes them at the headers time-out', async (context) => {
      const { host } = target();
      const before = await host.gc();
      const opened = Date.now();
      const idle: RawConnection[] = [];
      // In batches, as the listen backlog (511) would drop a thousand SYNs at once.
      for (let batch = 0; batch < 10; batch += 1) {
        idle.push(
          ...(await Promise.all(Array.from({ length: 100 }, () => openRawConnection(host.url)))),
        );
      }
      let peak = await host.stats();
      // The last accepts may still be queued.
      for (let wait = 0; peak.connections < 1_000 && wait < 20; wait += 1) {
        await sleep(25);
        peak = await host.stats();
      }
      const healthStarted = Date.now();
      const health = await send(host.url, { method: 'GET', path: '/health' });
      const healthMs = Date.now() - healthStarted;
      const plant = { id: spreadId(space + 3, 0), name: exactName('while idle') };
      const postStarted = Date.now();
      const created = await postPlant(host.url, env.token, plantBody(plant));
      const postMs = Date.now() - postStarted;
      const closedAt = await Promise.all(idle.map(({ closed }) => within(closed, 10_000)));
      const got408 = idle.filter(({ received }) => received.startsWith('HTTP/1.1 408')).length;
      const lifetimes = closedAt.map((at) => (at ?? Number.NaN) - opened);
      const after = await checkHostHealth(host, before);
      await context.annotate(
        `[client faults] ${adapter}, 1,000 idle connections: ${peak.connections} open on the server, ` +
          `RSS ${Math.round(before.rss / KiB / KiB)} → ${Math.round(peak.rss / KiB / KiB)} MiB; ` +
          `GET /health ${health.status} in ${healthMs} ms and POST /plants ${created.status} in ${postMs} ms meanwhile; ` +
          `closed by the server after ${Math.min(...lifetimes)}–${Math.max(...lifetimes)} ms ` +
          `(headersTimeout ${SERVER.headersTimeout} ms, checked every ${SERVER.connectionsCheckingInterval} ms), ` +
          `${got408} of them with a 408; RSS after GC ${Math.round(after.rssAfter / KiB / KiB)} MiB`,
      );
      expect(peak.connections).toBeGreaterThanOrEqual(1_000);
      expect(health.status).toBe(200);
      expect(created.status).toBe(200);
      expect(closedAt.every((at) => at !== undefined)).toBe(true);
      // Closed at the headers time-out, not before and not never: the 408s say which time-out closed
      // them. The upper bound leaves room for a busy machine (CI runs the crash tests beside this),
      // where closing 1,000 sockets took up to 4.8 s; a server that kept them would pass no bound.
      expect(got408).toBeGreaterThan(0);
      expect(Math.min(...lifetimes)).toBeGreaterThanOrEqual(SERVER.headersTimeout - 100);
      expect(Math.max(...lifetimes)).toBeLessThan(
        SERVER.headersTimeout + 2 * SERVER.connectionsCheckingInterval + 10_000,
      );
      expect(after.problems).toEqual([]);
    });
  });
});

import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../src/index';
import { databaseUrlFor, spawnFixture, uniqueTable } from './services';
import {
  concurrentCreates,
  inFlight,
  type KeepAliveClient,
  keepAliveClient,
} from '@plantstore/http-suite/client';

const databaseUrl = databaseUrlFor('the two-server concurrency test');

const IDS = 1_000;
const ATTEMPTS_PER_ID = 10;
const IN_FLIGHT = 200;

function idOf(index: number): bigint {
  if (index === 0) return -(2n ** 63n);
  if (index === 1) return 2n ** 63n - 1n;
  return index % 2 === 0
    ? 2n ** 53n + 1n + BigInt(index) * 7_919n
    : -(2n ** 62n) - BigInt(index) * 104_729n;
}

/** The plants of the test: the int64 ends and ids beyond 2^53, an emoji in every name. */
const plants = Array.from({ length: IDS }, (_, index) => ({
  id: idOf(index),
  name: `plant ${index} 🌿`,
  tag: index % 3 === 0 ? undefined : `tag ${index % 7}`,
}));

interface Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly port: number;
  readonly lines: AsyncIterator<string>;
}

async function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const { child, lines, first } = await spawnFixture('plant-server', env);
  const match = /^listening (\d+)$/.exec(first);
  if (match === null) throw new Error(`plant-server did not start: ${first}`);
  return { child, port: Number(match[1]), lines };
}

async function createdBy(server: Server): Promise<number> {
  server.child.stdin.write('stats\n');
  const line = await server.lines.next();
  return Number(/^created (\d+)$/.exec(String(line.value))?.[1] ?? Number.NaN);
}

describe.skipIf(databaseUrl === undefined)('two server processes sharing one table', () => {
  const table = uniqueTable('two_servers');
  const token = randomBytes(24).toString('base64url');
  const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let pool: Pool;
  let servers: Server[] = [];

  beforeAll(async () => {
    pool = new Pool({ connectionString: databaseUrl });
    await postgresStore({ client: pool, table }).ensureSchema();
    servers = await Promise.all(
      [1, 2].map(() =>
        startServer({ DATABASE_URL: databaseUrl, PLANT_TABLE: table, PLANT_TOKEN: token }),
      ),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(
      servers.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        child.stdin.end();
        const exited = once(child, 'exit');
        const timer = setTimeout(() => child.kill(), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await pool.query(`DROP TABLE IF EXISTS "${table}"`);
    await pool.end();
  });

  it('creates each of 1,000 ids exactly once under 10,000 concurrent requests, with no 5xx', async (context) => {
    const attempts = concurrentCreates(plants, 20_250_101);
    expect(attempts).toHaveLength(IDS * ATTEMPTS_PER_ID);
    // Keep-alive connections, as a load balancer in front of the two would hold.
    const clients = servers.map(({ port }) =>
      keepAliveClient(`http://127.0.0.1:${port}`, IN_FLIGHT),
    );
    const started = Date.now();
    const outcomes = await inFlight(attempts, IN_FLIGHT, async (attempt, index) => {
      const client = clients[index % clients.length] as KeepAliveClient;
      const reply = await client.send({ body: attempt.body, headers: json });
      return { plant: attempt.plant, status: reply.status, body: reply.text };
    });
    for (const client of clients) client.close();
    const elapsed = Date.now() - started;

    const { rows } = await pool.query<{ id: string; name: string; tag: string | null }>(
      `SELECT id::text AS id, name, tag, created_by FROM "${table}"`,
    );
    expect(rows).toHaveLength(IDS);
    const stored = new Map(rows.map((row) => [BigInt(row.id), row]));
    for (let index = 0; index < IDS; index += 1) expect(stored.has(idOf(index))).toBe(true);

    const statuses = new Map<number, number>();
    for (const { plant, status, body } of outcomes) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const row = stored.get(plant.id);
      const same =
        row !== undefined && row.name === plant.name && (row.tag ?? undefined) === plant.tag;
      if (status === 200) {
        expect(same, `a 200 for id ${plant.id} whose body differs from the row`).toBe(true);
        expect(JSON.parse(body)).toEqual(
          row?.tag === null ? { name: row.name } : { name: row?.name, tag: row?.tag },
        );
      } else {
        expect(status, `id ${plant.id}: ${body}`).toBe(409);
        expect(same, `a 409 for id ${plant.id} whose body equals the row`).toBe(false);
      }
    }
    const createdCounts = await Promise.all(servers.map(createdBy));
    expect(createdCounts.reduce((sum, count) => sum + count, 0)).toBe(IDS);
    expect(createdCounts.every((count) => count > 0)).toBe(true);
    await context.annotate(
      `two servers: ${outcomes.length} requests in ${elapsed} ms, ` +
        `statuses ${JSON.stringify(Object.fromEntries(statuses))}, created ${createdCounts.join(' + ')}`,
    );
    // About 10 s on a quiet machine; the bound is for a machine shared with other CPU-bound work.
  }, 300_000);
});

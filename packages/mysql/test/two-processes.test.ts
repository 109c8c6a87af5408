import { randomBytes } from 'node:crypto';
import {
  createsThroughServers,
  judgeCreates,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '@plantstore/http-suite/client';
import type mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mysqlStore } from '../src/index';
import { mysqlUrlFor, promisePool, uniqueTable } from './services';

const url = mysqlUrlFor('the two-process concurrency test on MySQL');

/** The 1,000 plants: both int64 ends, ids past 2^53 either side, a 4-byte character in each name. */
const plants = Array.from({ length: 1_000 }, (_, index) => ({
  id:
    index === 0
      ? -(2n ** 63n)
      : index === 1
        ? 2n ** 63n - 1n
        : (index % 2 === 0 ? 1n : -1n) * (2n ** 53n + BigInt(index) * 9_973n),
  name: `plant ${index} 🌵`,
  tag: index % 4 === 0 ? undefined : `tag ${index % 5}`,
}));

describe.skipIf(url === undefined)('two server processes on one MariaDB table', () => {
  const table = uniqueTable('two_processes');
  const token = randomBytes(24).toString('base64url');
  let pool: mysqlPromise.Pool;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    pool = promisePool(url ?? '');
    await mysqlStore({ client: pool, table }).ensureSchema();
    const env = { MYSQL_URL: url ?? '', PLANT_TABLE: table, PLANT_TOKEN: token };
    const start = () =>
      startServerProcess(
        new URL('fixtures/plant-server.ts', import.meta.url),
        new URL('../tsconfig.json', import.meta.url),
        env,
      );
    servers = await Promise.all([start(), start()]);
  }, 60_000);

  afterAll(async () => {
    for (const { child } of servers) if (child.exitCode === null) child.kill();
    await pool.query(`DROP TABLE IF EXISTS \`${table}\``);
    await pool.end();
  });

  it('creates each of 1,000 ids exactly once under 10,000 concurrent creates, answering 200 or 409 as the content says', async (context) => {
    const ports = servers.map(({ port }) => port);
    const { outcomes, elapsed } = await createsThroughServers(ports, token, plants, 20_261_127);
    const [rows] = await pool.query(
      `SELECT CAST(id AS CHAR) AS id, CAST(name AS BINARY) AS name, CAST(tag AS BINARY) AS tag FROM \`${table}\``,
    );
    const stored = new Map(
      (rows as { id: string; name: Buffer; tag: Buffer | null }[]).map((row) => [
        BigInt(row.id),
        { name: row.name.toString('utf8'), tag: row.tag?.toString('utf8') },
      ]),
    );
    expect(stored.size).toBe(plants.length);
    const { statuses, problems } = judgeCreates(outcomes, stored);
    expect(problems).toEqual([]);
    const created = await Promise.all(servers.map(stopServerProcess));
    expect(created.reduce((sum, count) => sum + count, 0)).toBe(plants.length);
    await context.annotate(
      `[mysql two processes] ${outcomes.length} creates in ${elapsed} ms, statuses ` +
        `${JSON.stringify(statuses)}, created ${created.join(' + ')}`,
    );
  }, 300_000);
});

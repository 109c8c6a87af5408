import { once } from 'node:events';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresReplayStore } from '../src/index';
import { databaseUrlFor, type FixtureProcess, spawnFixture, uniqueTable } from './services';

const databaseUrl = databaseUrlFor('the cross-process replay store test');

const WORKERS = 3;
const KEYS = 3_000;
const NOW = Date.UTC(2026, 0, 1);

/** What the table holds before the workers start, by key index: a third each. */
function seeded(index: number): 'expired' | 'unexpired' | 'absent' {
  return (['expired', 'unexpired', 'absent'] as const)[index % 3] ?? 'absent';
}

type Worker = FixtureProcess;

async function startWorker(env: NodeJS.ProcessEnv): Promise<Worker> {
  const worker = await spawnFixture('replay-worker', env);
  if (worker.first !== 'ready') throw new Error(`replay-worker did not start: ${worker.first}`);
  return worker;
}

async function newKeysOf(worker: Worker): Promise<number[]> {
  const line = await worker.lines.next();
  const match = /^new (\[.*\])$/.exec(String(line.value));
  if (match === null) throw new Error(`replay-worker answered ${String(line.value)}`);
  return JSON.parse(match[1] ?? '[]') as number[];
}

describe.skipIf(databaseUrl === undefined)(
  'replay stores in several processes on one table',
  () => {
    const table = uniqueTable('replay_processes');
    let pool: Pool;
    let workers: Worker[] = [];

    beforeAll(async () => {
      pool = new Pool({ connectionString: databaseUrl });
      await postgresReplayStore({ client: pool, table }).ensureSchema();
      await pool.query(
        `INSERT INTO "${table}" (key, expires_at)
       SELECT 'key-' || i, CASE WHEN i % 3 = 0 THEN $1::bigint ELSE $2::bigint END
       FROM generate_series(0, $3::int - 1) AS i WHERE i % 3 <> 2`,
        [NOW - 1, NOW + 30_000, KEYS],
      );
      workers = await Promise.all(
        Array.from({ length: WORKERS }, (_, index) =>
          startWorker({
            DATABASE_URL: databaseUrl,
            REPLAY_TABLE: table,
            REPLAY_KEYS: String(KEYS),
            REPLAY_NOW: String(NOW),
            REPLAY_SEED: String(index + 1),
          }),
        ),
      );
    }, 60_000);

    afterAll(async () => {
      await Promise.all(
        workers.map(async ({ child }) => {
          if (child.exitCode !== null) return;
          const exited = once(child, 'exit');
          child.kill();
          await exited;
        }),
      );
      await pool.query(`DROP TABLE IF EXISTS "${table}"`);
      await pool.end();
    });

    it(`finds each fresh or expired key new exactly once among ${WORKERS} processes, and no unexpired one`, async (context) => {
      const answers = workers.map(newKeysOf);
      for (const { child } of workers) child.stdin.write('go\n');
      const found = await Promise.all(answers);

      const times = new Array<number>(KEYS).fill(0);
      for (const indices of found)
        for (const index of indices) times[index] = (times[index] ?? 0) + 1;
      const wrong = times
        .map((count, index) => ({ index, count, seeded: seeded(index) }))
        .filter(({ count, seeded: state }) => count !== (state === 'unexpired' ? 0 : 1));
      expect(wrong).toEqual([]);
      // Every process won some keys: the calls really did race.
      expect(found.map((indices) => indices.length > 0)).toEqual(new Array(WORKERS).fill(true));

      const { rows } = await pool.query<{ expires_at: string; n: number }>(
        `SELECT expires_at::text AS expires_at, count(*)::int AS n FROM "${table}"
       GROUP BY expires_at ORDER BY expires_at`,
      );
      expect(rows).toEqual([
        { expires_at: String(NOW + 30_000), n: KEYS / 3 },
        { expires_at: String(NOW + 60_000), n: (2 * KEYS) / 3 },
      ]);
      await context.annotate(
        `replay processes: ${WORKERS} × ${KEYS} calls; new per process ${found
          .map((indices) => indices.length)
          .join(' + ')}`,
      );
    }, 120_000);
  },
);

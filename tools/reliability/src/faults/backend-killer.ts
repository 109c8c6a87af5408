import pg from 'pg';

/** A loop of `pg_terminate_backend` running in the background. */
export interface BackendKiller {
  /** Stops the loop and resolves the number of backends it terminated. */
  stop(): Promise<number>;
}

/**
 * Terminates every backend of the given application names (`pg_stat_activity.application_name`),
 * as an administrator or a fail-over would: busy and idle connections alike, mid-statement or not.
 *
 * @param pool - a Pool of the scenario itself, under another application name
 * @param applicationNames - the hosts' names
 * @returns how many backends were terminated
 */
export async function terminateBackends(
  pool: pg.Pool,
  applicationNames: readonly string[],
): Promise<number> {
  const { rows } = await pool.query<{ killed: boolean }>(
    'SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity ' +
      'WHERE application_name = ANY($1::text[]) AND pid <> pg_backend_pid()',
    [applicationNames],
  );
  return rows.filter((row) => row.killed).length;
}

/**
 * Terminates the hosts' backends every `intervalMs` until stopped.
 *
 * @param pool - a Pool of the scenario itself
 * @param applicationNames - the hosts' names
 * @param intervalMs - the pause between two rounds
 * @returns the running loop
 */
export function startBackendKiller(
  pool: pg.Pool,
  applicationNames: readonly string[],
  intervalMs: number,
): BackendKiller {
  let running = true;
  let killed = 0;
  const loop = (async () => {
    while (running) {
      killed += await terminateBackends(pool, applicationNames).catch(() => 0);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return killed;
    },
  };
}

/**
 * A kill interval the server can keep up with. PostgreSQL's postmaster forks one backend per new
 * connection, one at a time, and what that costs differs tenfold between machines: a few
 * milliseconds on a bare host, 23 ms on the small VMs CI runs on (pgbench -C: at most 39 connects a
 * second, whatever the concurrency). Killing the hosts' whole pools faster than the server can open
 * them again measures only that fork rate: every attempt waits out its pool's connection time-out,
 * and a scenario of fixed size no longer ends in its time. So the pause between two rounds is the
 * time to reopen every killed connection, `headroom` times over, and never under `floorMs`.
 *
 * @param databaseUrl - the PostgreSQL server
 * @param connections - how many connections one round kills at most (the hosts' pool sizes)
 * @param options - the least interval, and how many reopenings of the pools fit in one interval
 * @returns the interval in milliseconds, and the measured cost of one connection
 */
export async function killIntervalFor(
  databaseUrl: string,
  connections: number,
  { floorMs = 100, headroom = 2 }: { readonly floorMs?: number; readonly headroom?: number } = {},
): Promise<{ readonly intervalMs: number; readonly connectMs: number }> {
  const samples: number[] = [];
  for (let sample = 0; sample < 5; sample += 1) {
    const client = new pg.Client({ connectionString: databaseUrl });
    const started = performance.now();
    await client.connect();
    samples.push(performance.now() - started);
    await client.end();
  }
  const connectMs = samples.sort((a, b) => a - b)[2] as number;
  return {
    intervalMs: Math.max(floorMs, Math.ceil(connectMs * connections * headroom)),
    connectMs,
  };
}

import type pg from 'pg';

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

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/** A PostgreSQL server of the scenario's own, in a temporary folder: it may be SIGKILLed. */
export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, the same across restarts. */
  readonly url: string;
  /** SIGKILLs the postmaster and every backend at once, as a crashed machine would. */
  kill(): Promise<void>;
  /** Starts it again (it replays its write-ahead log) and waits until it takes connections. */
  start(): Promise<void>;
  /** Kills it and removes its folder. */
  remove(): Promise<void>;
}

const run = promisify(execFile);

/** Whether this machine has the PostgreSQL server programs (`initdb`, `postgres`) on its PATH. */
export async function hasPostgresPrograms(): Promise<boolean> {
  return run('initdb', ['--version']).then(
    () => true,
    () => false,
  );
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

// PostgreSQL refuses to run as root: as root, the server runs as the `postgres` user.
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (process.getuid?.() !== 0) return {};
  const { stdout } = await run('id', ['-u', 'postgres']);
  const { stdout: group } = await run('id', ['-g', 'postgres']);
  return { uid: Number(stdout.trim()), gid: Number(group.trim()) };
}

/**
 * Creates a PostgreSQL cluster in a temporary folder (`initdb`) and starts it on a free port, in a
 * process group of its own so that {@link PrivatePostgres.kill} takes the backends with it.
 * `fsync` stays on: a create the server committed survives the kill.
 *
 * @returns the running server
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const folder = await mkdtemp(join(tmpdir(), 'plantstore-pg-'));
  const data = join(folder, 'data');
  const user = await runAs();
  if (user.uid !== undefined) await chown(folder, user.uid, user.gid ?? user.uid);
  await new Promise<void>((resolve, reject) => {
    const init = spawn('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-N'], {
      ...user,
      stdio: 'ignore',
    });
    init.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb exited with ${String(code)}`)),
    );
  });
  const port = await freePort();
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let server: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const args = ['-D', data, '-p', String(port), '-k', folder, '-c', 'listen_addresses=127.0.0.1'];
    server = spawn('postgres', [...args, '-c', 'max_connections=40'], {
      ...user,
      detached: true,
      stdio: 'ignore',
    });
    for (let waited = 0; ; waited += 100) {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
      client.on('error', () => undefined);
      const up = await client.connect().then(
        () => true,
        () => false,
      );
      await client.end().catch(() => undefined);
      if (up) return;
      if (waited > 30_000) throw new Error('the private PostgreSQL did not start within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const kill = async (): Promise<void> => {
    const running = server;
    if (running?.pid === undefined || running.exitCode !== null || running.signalCode !== null)
      return;
    const exited = once(running, 'exit');
    process.kill(-running.pid, 'SIGKILL');
    await exited;
    // The backends were in the same group: wait until none holds the port any more.
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  await start();
  return {
    url,
    kill,
    start,
    async remove() {
      await kill();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';

/** A Redis server of the scenario's own, in a temporary folder, writing every command to disk. */
export interface PrivateRedis {
  /** `redis://127.0.0.1:<port>`, the same across restarts. */
  readonly url: string;
  /** SIGKILLs it, as a crash. */
  kill(): Promise<void>;
  /** Starts it again (it reloads its append-only file) and waits until it answers. */
  start(): Promise<void>;
  /** Kills it and removes its folder. */
  remove(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/**
 * Starts `redis-server` on a free port with `appendonly yes` and `appendfsync always`: a write it
 * answered is on disk, so it survives a SIGKILL.
 *
 * @returns the running server
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const folder = await mkdtemp(join(tmpdir(), 'plantstore-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const settings = ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder];
    const durable = ['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
    server = spawn('redis-server', [...settings, ...durable], { stdio: 'ignore' });
    for (let waited = 0; ; waited += 100) {
      const client = createClient({ url, socket: { reconnectStrategy: false } });
      client.on('error', () => undefined);
      const up = await client.connect().then(
        async () => (await client.ping()) === 'PONG',
        () => false,
      );
      await client.close().catch(() => undefined);
      if (up) return;
      if (waited > 20_000) throw new Error('the private Redis did not start within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const kill = async (): Promise<void> => {
    const running = server;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
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

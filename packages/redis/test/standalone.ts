import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, until } from './cluster';

/** One Redis server of the test's own, on a free port: never the machine's 6379, which others share. */
export interface OwnRedis {
  readonly url: string;
  /** Starts it (again, on the same port, empty). */
  start(): Promise<void>;
  /** SIGKILLs it: its clients see the connection reset, then refused. */
  kill(): Promise<void>;
  /** Kills it and deletes its folder. */
  stop(): Promise<void>;
}

/**
 * A server from `binary`, without persistence unless `settings` give it some, in a folder of its
 * own; call `start()` first.
 *
 * @param binary - the machine's `redis-server`
 * @param settings - more arguments, after the defaults (`--appendonly yes`, `--rename-command …`)
 */
export async function ownRedis(
  binary: string,
  settings: readonly string[] = [],
): Promise<OwnRedis> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-redis-'));
  let child: ChildProcess | undefined;
  const probe = async () => {
    const { createConnection } = await import('node:net');
    const socket = createConnection(port, '127.0.0.1');
    socket.write('PING\r\n');
    const [reply] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    return String(reply).startsWith('+PONG');
  };
  const kill = async (): Promise<void> => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const args = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        ...settings,
      ];
      child = spawn(binary, args, { stdio: 'ignore' });
      await until(probe, 10_000, `redis-server on ${port}`);
    },
    kill,
    async stop() {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

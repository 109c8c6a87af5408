import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort, until } from './cluster';

/** One Redis server of the test's own, on a free port: never the machine's 6379, which others share. */
export interface OwnRedis {
  readonly url: string;
  /** Starts it (again, on the same port, empty). */
  start(): Promise<void>;
  /** SIGKILLs it: its clients see the connection reset, then refused. */
  kill(): Promise<void>;
}

/**
 * A server from `binary` without persistence; call `start()` first.
 *
 * @param binary - the machine's `redis-server`
 */
export async function ownRedis(binary: string): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const probe = async () => {
    const { createConnection } = await import('node:net');
    const socket = createConnection(port, '127.0.0.1');
    socket.write('PING\r\n');
    const [reply] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    return String(reply).startsWith('+PONG');
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
      ];
      child = spawn(binary, args, { stdio: 'ignore' });
      await until(probe, 10_000, `redis-server on ${port}`);
    },
    async kill() {
      if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

// dynalite has no TransactWriteItems, which the store's write with an event is. moto's server
// (`pip install 'moto[server]'`) has it: the outbox suite runs there, and is skipped, saying so,
// where moto_server is not installed.

/** Why the outbox suite cannot run here, or `undefined` when moto_server is on the PATH. */
export const motoMissing: string | undefined =
  spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0
    ? undefined
    : "moto_server is not installed (pip install 'moto[server]'): dynalite has no TransactWriteItems";

/** A moto server on a free port of 127.0.0.1, in memory. */
export interface Moto {
  readonly endpoint: string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts moto_server and waits until it answers (up to 60 s, on a busy machine). */
export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const up = await fetch(`${endpoint}/moto-api/`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error(`moto_server did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    endpoint,
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

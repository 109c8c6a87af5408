import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createServer } from 'node:net';

// dynalite has no TransactWriteItems, which the store's write with an event is. moto's server
// (`pip install 'moto[server]'`) has it: the outbox suite runs there, and is skipped, saying so,
// where moto is not installed.
//
// moto_server answers on many threads, and its DynamoDB checks a transaction's conditions and then
// writes with no lock between: two parallel creates of one id both pass `attribute_not_exists` (seen
// here, 2 of 20 under load). DynamoDB's transactions are serializable, so the suite runs moto's own
// app on one thread, which serializes them as DynamoDB does.
const ONE_THREAD = [
  'import sys',
  'from werkzeug.serving import run_simple',
  'from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app',
  'run_simple("127.0.0.1", int(sys.argv[1]), DomainDispatcherApplication(create_backend_app), threaded=False)',
].join('\n');

// The first python3 on the PATH that has moto: under `npx pnpm`, npm puts the system's own python3
// (without moto) ahead of a pyenv or virtualenv one.
const python = (process.env['PATH'] ?? '')
  .split(delimiter)
  .map((folder) => join(folder, 'python3'))
  .find(
    (candidate) =>
      existsSync(candidate) &&
      spawnSync(candidate, ['-c', 'import moto.server'], { stdio: 'ignore' }).status === 0,
  );

/** Why the outbox suite cannot run here, or `undefined` when moto's server is installed. */
export const motoMissing: string | undefined =
  python === undefined
    ? "no python3 on the PATH has moto's server (pip install 'moto[server]'): dynalite has no TransactWriteItems"
    : undefined;

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

/** Starts moto's server on one thread and waits until it answers (up to 60 s, on a busy machine). */
export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const child = spawn(python ?? 'python3', ['-c', ONE_THREAD, String(port)], { stdio: 'ignore' });
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

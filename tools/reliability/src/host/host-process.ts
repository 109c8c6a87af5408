import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HostCommand, HostConfig, HostMessage, HostStats, RecordedError } from './host-config';

/** A running host process, seen from the parent. */
export interface HostProcess {
  readonly adapter: HostConfig['adapter'];
  /** `http://127.0.0.1:<port>`; the route is `POST {url}/plants`, the host's own `GET {url}/health`. */
  readonly url: string;
  readonly pid: number;
  /** Memory, sockets and hook counts now. */
  stats(): Promise<HostStats>;
  /** The same after several full garbage collections (the process runs with `--expose-gc`). */
  gc(): Promise<HostStats>;
  /** The `onError` calls recorded since the last call, oldest first. */
  takeErrors(): Promise<RecordedError[]>;
  /** Closes the server, the route's service and the Pool, then waits for the process to exit. */
  close(): Promise<void>;
}

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

function tsxLoader(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
}

/**
 * Starts a host process (`plant-host.ts`, run from source by tsx) and waits until it listens. Its
 * stderr is passed through with a prefix; it exits when this process goes away.
 *
 * @param config - the adapter, the database, the token issuer and the limits
 * @returns the running host
 * @throws when the process fails to start within 30 s
 */
export async function startHost(config: HostConfig): Promise<HostProcess> {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', tsxLoader(), here('plant-host.ts')],
    {
      env: {
        ...process.env,
        PLANT_HOST_CONFIG: JSON.stringify(config),
        TSX_TSCONFIG_PATH: here('../../tsconfig.json'),
        NODE_ENV: 'production',
      },
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    },
  );
  child.stderr?.on('data', (chunk: Buffer) =>
    process.stderr.write(`[${config.adapter} host] ${chunk.toString()}`),
  );
  const port = await listening(child, config.adapter);
  let nextId = 0;
  const pending = new Map<number, (value: unknown) => void>();
  child.on('message', (message: HostMessage) => {
    if (message.type !== 'reply') return;
    pending.get(message.id)?.(message.value);
    pending.delete(message.id);
  });
  const call = <T>(command: HostCommand['command']): Promise<T> => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return Promise.reject(new Error(`the ${config.adapter} host has exited`));
    }
    const id = (nextId += 1);
    return new Promise<T>((resolve) => {
      pending.set(id, resolve as (value: unknown) => void);
      child.send({ id, command });
    });
  };
  return {
    adapter: config.adapter,
    url: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stats: () => call<HostStats>('stats'),
    gc: () => call<HostStats>('gc'),
    takeErrors: () => call<RecordedError[]>('errors'),
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await call('close').catch(() => undefined);
      await exited;
      clearTimeout(timer);
    },
  };
}

function listening(child: ChildProcess, adapter: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${adapter} host did not listen within 30 s`));
    }, 30_000);
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`the ${adapter} host exited before listening (code ${String(code)})`));
    };
    child.once('exit', onExit);
    child.on('message', function onMessage(message: HostMessage) {
      if (message.type === 'reply') return;
      clearTimeout(timer);
      child.removeListener('exit', onExit);
      child.removeListener('message', onMessage);
      if (message.type === 'listening') resolve(message.port);
      else {
        child.kill('SIGKILL');
        reject(new Error(`the ${adapter} host failed to start: ${message.message}`));
      }
    });
  });
}

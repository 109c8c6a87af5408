import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What the app process runs on, and where its relay delivers. */
export interface EventAppConfig {
  readonly store:
    | { readonly kind: 'postgres'; readonly url: string; readonly table: string }
    | { readonly kind: 'redis'; readonly url: string; readonly prefix: string };
  readonly jwksUri: string;
  readonly issuer: string;
  readonly audience: string;
  readonly sink:
    | { readonly kind: 'webhook'; readonly url: string; readonly secret: string }
    | { readonly kind: 'amqp'; readonly url: string; readonly exchange: string }
    | { readonly kind: 'redis-stream'; readonly url: string; readonly stream: string };
}

/** A running app process, seen from the scenario. */
export interface EventApp {
  /** `http://127.0.0.1:<port>`: the route is `POST {url}/plants`. */
  readonly url: string;
  /** SIGKILLs the process: no shutdown, no flush, as a crash. */
  kill(): Promise<void>;
}

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Starts `event-app.ts` (run from source by tsx) and waits until it listens.
 *
 * @param config - the database, the token issuer and the sink
 * @returns the running app
 * @throws when it fails to start within 30 s
 */
export async function startEventApp(config: EventAppConfig): Promise<EventApp> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
      here('event-app.ts'),
    ],
    {
      env: {
        ...process.env,
        EVENT_APP_CONFIG: JSON.stringify(config),
        TSX_TSCONFIG_PATH: here('../../tsconfig.json'),
      },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [message] = (await Promise.race([once(child, 'message'), once(child, 'exit')])) as [
    { port?: number; failed?: string } | number | null,
  ];
  clearTimeout(timer);
  if (typeof message !== 'object' || message === null || message.port === undefined) {
    child.kill('SIGKILL');
    throw new Error(`the event app did not start: ${JSON.stringify(message)}`);
  }
  return {
    url: `http://127.0.0.1:${message.port}`,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

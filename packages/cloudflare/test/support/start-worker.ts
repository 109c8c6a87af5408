import type { Readable } from 'node:stream';
import type { RuntimeProcess } from '@plantstore/http-suite';
import { Miniflare, type MiniflareOptions } from 'miniflare';

/**
 * The compatibility date the Workers run under: one the workerd that miniflare brings supports
 * (workerd refuses a date past its own build), and past 2024-09-23, from which `nodejs_compat`
 * includes `process.getBuiltinModule`.
 */
export const COMPATIBILITY_DATE = '2026-07-01';

/** How a test runs its Worker. */
export interface WorkerOptions {
  /** The bundled Worker (`bundleWorker`). */
  readonly script: string;
  /** Turn on the `nodejs_compat` flag. */
  readonly nodejsCompat: boolean;
  /** Text bindings, `env.NAME` in the Worker (`[vars]` in wrangler.toml). */
  readonly bindings?: Readonly<Record<string, string>>;
  /** Everything else miniflare takes (D1 databases, Durable Objects). */
  readonly more?: Omit<MiniflareOptions, 'script' | 'modules' | 'bindings'>;
}

/** A Worker running on workerd through miniflare, as a {@link RuntimeProcess} for the kit. */
export interface RunningWorker extends RuntimeProcess {
  readonly miniflare: Miniflare;
}

/**
 * Starts a Worker on the real workerd binary (miniflare runs it as a child process), listening on
 * port 0 of 127.0.0.1, so clients reach it over real HTTP as they reach Bun or Deno.
 *
 * @param options - the script, the flag and the bindings
 * @returns the running Worker; `stop()` disposes of miniflare and its workerd
 * @example
 * ```ts
 * const worker = await startWorker({ script, nodejsCompat: false, bindings: { JWT_SECRET } });
 * await fetch(`${worker.origin}/api/plants`, { method: 'POST', body: '{}' });
 * ```
 */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  let output = '';
  const miniflare = new Miniflare({
    ...options.more,
    modules: true,
    script: options.script,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: options.nodejsCompat ? ['nodejs_compat'] : [],
    bindings: { ...options.bindings },
    host: '127.0.0.1',
    port: 0,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const stream of [stdout, stderr]) {
        stream.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
      }
    },
  });
  let url: URL;
  try {
    url = await miniflare.ready;
  } catch (error) {
    await miniflare.dispose().catch(() => undefined);
    throw new Error(`the Worker did not start:\n${output}`, { cause: error });
  }
  let resolveExit: (code: number | null) => void = () => undefined;
  const exited = new Promise<number | null>((resolve) => (resolveExit = resolve));
  return {
    miniflare,
    origin: url.origin,
    output: () => output,
    exited,
    async stop() {
      await miniflare.dispose();
      resolveExit(0);
      return 0;
    },
  };
}

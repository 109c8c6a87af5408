import { type ChildProcess, spawn } from 'node:child_process';

/** A program running under a runtime, serving HTTP on 127.0.0.1. */
export interface RuntimeProcess {
  /** `http://127.0.0.1:<port>`, as the program printed it. */
  readonly origin: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code when the program has ended by itself or through `stop`. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
}

/** What to run. */
export interface RuntimeCommand {
  /** The runtime's binary (`findRuntime(…).path`, or `process.execPath` for Node.js). */
  readonly binary: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** Added to a small base environment (PATH, HOME, the temporary folder), not to the test's. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * How long the program may take to print its address. Default 120 s: PGlite's first start (its
   * `initdb`) takes 4 to 16 s on a shared 2-core machine, and more on a busier one.
   */
  readonly startTimeoutMs?: number;
}

const ORIGIN = /http:\/\/127\.0\.0\.1:\d+/u;
const BASE_ENV = ['PATH', 'HOME', 'TMPDIR', 'DENO_DIR', 'XDG_CACHE_HOME', 'SYSTEMROOT'];

/**
 * Starts a server program as a child process and waits until it prints its address: programs listen
 * on port 0 of 127.0.0.1 and print `http://127.0.0.1:<port>` on stdout, so no port is guessed and
 * none races.
 * The child gets a small environment of its own, so vitest's settings (NODE_OPTIONS and the like)
 * do not leak into another runtime.
 *
 * @param command - the binary, its arguments, folder and environment
 * @returns the running program
 * @throws when the program exits or stays silent before printing an address; the error holds its output
 */
export async function startRuntime(command: RuntimeCommand): Promise<RuntimeProcess> {
  const env: Record<string, string> = { NO_COLOR: '1' };
  for (const name of BASE_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const child = spawn(command.binary, command.args, {
    cwd: command.cwd,
    env: { ...env, ...command.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (error) => {
      output += `\n${error.message}`;
      resolve(null);
    });
  });
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no address within ${command.startTimeoutMs ?? 120_000} ms:\n${output}`));
    }, command.startTimeoutMs ?? 120_000);
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      printed += chunk.toString('utf8');
      const found = ORIGIN.exec(printed)?.[0];
      if (found !== undefined) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString('utf8')));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before printing an address:\n${output}`));
    });
  });
  return {
    origin,
    output: () => output,
    exited,
    stop: (graceMs = 5_000) => stop(child, exited, graceMs),
  };
}

async function stop(
  child: ChildProcess,
  exited: Promise<number | null>,
  graceMs: number,
): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return exited;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

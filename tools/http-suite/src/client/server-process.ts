import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A plant server process of a store package's tests, and the lines it prints. */
export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: AsyncIterator<string>;
  readonly port: number;
}

/**
 * Starts a TypeScript server fixture through tsx (resolved from the fixture's own package) and
 * waits for its first line, `port <n>`. Its stderr is forwarded, marked `[server]`.
 *
 * @param fixture - the fixture file
 * @param tsconfig - the package's tsconfig, whose paths map the workspace sources
 * @param env - added to this process's environment
 * @returns the process and the port it listens on
 */
export async function startServerProcess(
  fixture: URL,
  tsconfig: URL,
  env: Readonly<Record<string, string>>,
): Promise<ServerProcess> {
  const tsx = pathToFileURL(createRequire(fixture).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, fileURLToPath(fixture)], {
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: fileURLToPath(tsconfig) },
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(`[server] ${chunk.toString()}`));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const first = String((await lines.next()).value);
  const port = /^port (\d+)$/.exec(first)?.[1];
  if (port === undefined) throw new Error(`the plant server did not start: ${first}`);
  return { child, lines, port: Number(port) };
}

/** Ends a server (its stdin closed) and resolves to the count of its last line, `created <n>`. */
export async function stopServerProcess(server: ServerProcess): Promise<number> {
  server.child.stdin.end();
  const line = String((await server.lines.next()).value);
  return Number(/^created (\d+)$/.exec(line)?.[1] ?? Number.NaN);
}

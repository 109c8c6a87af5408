import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A plant server process of ./fixtures/plant-server.ts. */
export interface PlantProcess {
  readonly port: number;
  /** Closes its stdin and resolves to the plants it created. */
  stop(): Promise<number>;
  /** Ends it at once (after a failed test). */
  kill(): void;
}

/**
 * Starts ./fixtures/plant-server.ts under tsx with `env` added to this process's, and resolves once
 * it printed its port. Its stderr is passed on, marked, so that a 500 it logs shows in the run.
 */
export async function startPlantProcess(env: Record<string, string>): Promise<PlantProcess> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const script = fileURLToPath(new URL('fixtures/plant-server.ts', import.meta.url));
  const tsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', tsx, script], {
    env: { ...process.env, ...env, TSX_TSCONFIG_PATH: tsconfig },
  });
  child.stderr.on('data', (chunk: Buffer) =>
    process.stderr.write(`[plant server] ${String(chunk)}`),
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const line = async (pattern: RegExp): Promise<number> => {
    const { value } = (await lines.next()) as IteratorResult<string, unknown>;
    const found = pattern.exec(String(value))?.[1];
    if (found === undefined)
      throw new Error(`plant server: expected ${pattern}, got ${String(value)}`);
    return Number(found);
  };
  const port = await line(/^port (\d+)$/);
  return {
    port,
    stop: () => {
      child.stdin.end();
      return line(/^created (\d+)$/);
    },
    kill: () => void (child.exitCode === null && child.kill()),
  };
}

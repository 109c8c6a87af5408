import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A host program bundled into one file, and how to remove it. */
export interface BundledHost {
  /** The bundle, for `node <file>`. */
  readonly file: string;
  readonly remove: () => Promise<void>;
}

/**
 * Bundles a contract host program once per test file, so each of the suite's hosts starts as plain
 * Node.js in a fraction of a second instead of compiling its TypeScript again under tsx.
 * The packages resolve to their sources through the example's tsconfig `paths`.
 *
 * @param entry - the program, relative to `src/`
 * @returns the bundle
 */
export async function bundleHost(entry: string): Promise<BundledHost> {
  const folder = await mkdtemp(join(tmpdir(), 'plantstore-host-'));
  const file = join(folder, 'host.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)),
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  return { file, remove: () => rm(folder, { recursive: true, force: true }) };
}

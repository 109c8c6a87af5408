import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Where the Worker's `@plantstore/*` imports come from. */
export type CoreSource = 'sources' | 'built';

// The packages' TypeScript sources, as the root vitest config maps them: `pnpm test` needs no build.
const SOURCES: Readonly<Record<string, string>> = {
  '@plantstore/core': source('../../../core/src/index.ts'),
  '@plantstore/cloudflare': source('../../src/index.ts'),
};

/**
 * Bundles a Worker as a user's build would (wrangler bundles with esbuild too): one ES module, for
 * the browser-like `workerd` conditions, no Node built-in marked external, so a `node:` import
 * anywhere in the graph fails the bundle instead of the Worker's start.
 *
 * @param entry - the Worker's module, relative to `test/workers/` (`contract-worker.ts`)
 * @param from - `sources` (the default: the packages' TypeScript) or `built` (the packages' `dist`,
 *   as a user installs them: needs `pnpm build`)
 * @param minify - minify, to measure what a deployed Worker weighs
 * @returns the bundle's code
 * @example
 * ```ts
 * const script = await bundleWorker('secret-worker.ts', 'built', true);
 * ```
 */
export async function bundleWorker(
  entry: string,
  from: CoreSource = 'sources',
  minify = false,
): Promise<string> {
  const result = await build({
    entryPoints: [source(`../workers/${entry}`)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    minify,
    logLevel: 'silent',
    ...(from === 'sources' ? { alias: SOURCES } : {}),
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}

import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** How to bundle a Worker. */
export interface BundleOptions {
  /**
   * Where `@plantstore/*` imports come from: `sources` (the packages' TypeScript, the default) or
   * `built` (the packages' `dist`, as a user installs them: needs `pnpm build`).
   */
  readonly from?: 'sources' | 'built';
  /** Minify, to measure what a deployed Worker weighs. */
  readonly minify?: boolean;
  /** `esm` (a Worker module, the default) or `iife` (a script, for the Edge runtime). */
  readonly format?: 'esm' | 'iife';
}

// The packages' TypeScript sources, as the root vitest config maps them: `pnpm test` needs no build.
const SOURCES: Readonly<Record<string, string>> = {
  '@plantstore/core': source('../../../core/src/index.ts'),
  '@plantstore/core/adapter': source('../../../core/src/entries/adapter.ts'),
  '@plantstore/core/store-kit': source('../../../core/src/entries/store-kit.ts'),
  '@plantstore/cloudflare': source('../../src/index.ts'),
};

/**
 * Bundles a Worker as a user's build would (wrangler bundles with esbuild too): one ES module, for
 * the browser-like `workerd` conditions, no Node built-in marked external, so a `node:` import
 * anywhere in the graph fails the bundle instead of the Worker's start.
 *
 * @param entry - the Worker's module, relative to `test/workers/` (`contract-worker.ts`)
 * @param options - where the packages come from, minified or not, the format
 * @returns the bundle's code
 * @example
 * ```ts
 * const script = await bundleWorker('secret-worker.ts', { from: 'built', minify: true });
 * ```
 */
export async function bundleWorker(entry: string, options: BundleOptions = {}): Promise<string> {
  const { from = 'sources', minify = false, format = 'esm' } = options;
  const result = await build({
    entryPoints: [source(`../workers/${entry}`)],
    bundle: true,
    write: false,
    format,
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    minify,
    logLevel: 'silent',
    // Built: resolved as a user's project resolves them, through node_modules and the packages'
    // `exports`; this package's tsconfig `paths` (to the sources) must not apply.
    ...(from === 'sources' ? { alias: SOURCES } : { tsconfigRaw: {} }),
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
}

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { MarkdownBlock } from '../blocks/markdown-blocks';
import { packageSourcePaths } from '../compiler-options';
import { dryRun } from './dry-run';
import type { BlockRun, RunManifest } from './run-manifest';

const here = fileURLToPath(new URL('.', import.meta.url));

// Where a block's driver would connect when it reads its URL from the environment: a closed port,
// so that a call the dry run missed fails at once instead of reaching a server this machine has.
const NO_SERVER = {
  DATABASE_URL: 'postgres://127.0.0.1:9/none',
  MYSQL_URL: 'mysql://root@127.0.0.1:9/none',
  REDIS_URL: 'redis://127.0.0.1:9',
};

/**
 * Runs code blocks as a reader would paste them, dry (see `dryRun`): each is an ES module of its
 * own, run in turn by one child Node.js process, with the published packages as their sources and
 * values for the names the blocks take as given. A factory a block misconfigures throws there, as
 * it would at the reader's start-up.
 *
 * @param root - the repository's root folder
 * @param blocks - the blocks, in order
 * @returns how each block ran, in order
 * @throws Error when the child process fails or does not finish within a minute
 * @example
 * const failed = (await runBlocks(root, blocks)).filter((run) => run.error !== undefined);
 */
export async function runBlocks(
  root: string,
  blocks: readonly MarkdownBlock[],
): Promise<BlockRun[]> {
  // Inside docs-check's node_modules: the blocks' imports (express, pg, redis…) resolve from there.
  const cache = join(root, 'tools/docs-check/node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const folder = mkdtempSync(join(cache, 'readme-blocks-'));
  try {
    const manifest: RunManifest = {
      blocks: blocks.map((block, index) => {
        const file = join(folder, `block-${index}.mjs`);
        writeFileSync(file, dryRun(block.code));
        return { where: `${block.page}:${block.line}`, file };
      }),
      sources: Object.fromEntries(
        Object.entries(packageSourcePaths(root)).map(([name, [path = '']]) => [
          name,
          pathToFileURL(path).href,
        ]),
      ),
    };
    const manifestPath = join(folder, 'manifest.json');
    const resultsPath = join(folder, 'results.json');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(here, 'child/run-child.ts'), manifestPath, resultsPath],
      { cwd: folder, env: { ...process.env, ...NO_SERVER }, timeout: 60_000 },
    );
    return JSON.parse(readFileSync(resultsPath, 'utf8')) as BlockRun[];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// The child process of `runReadmeBlocks`: runs each block module in turn and writes what happened.
// argv: the manifest (JSON: the blocks' files and where they come from, the packages' sources) and
// the file to write the results to.
import { readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { BlockRun, RunManifest } from '../run-manifest';
import { snippetValues } from './snippet-values';

const [manifestPath = '', resultsPath = ''] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as RunManifest;
register(new URL('hooks.mjs', import.meta.url), { data: manifest.sources });

const core = await import('@plantstore/core');
Object.assign(globalThis, snippetValues(core.memoryStore));

const runs: BlockRun[] = [];
let current: BlockRun | undefined;
// Work a block starts without awaiting it fails the block that started it.
process.on('unhandledRejection', (reason) => {
  if (current !== undefined) current.error ??= describe(reason);
});
for (const block of manifest.blocks) {
  current = { where: block.where, error: undefined };
  runs.push(current);
  try {
    await import(pathToFileURL(block.file).href);
  } catch (error) {
    current.error = describe(error);
  }
  // A turn of the event loop, for a rejection the block left behind.
  await new Promise((resolve) => setImmediate(resolve));
}
writeFileSync(resultsPath, JSON.stringify(runs));
process.exit(0);

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

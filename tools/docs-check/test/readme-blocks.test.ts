import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { type MarkdownBlock, markdownBlocks, readmes } from '../src/blocks/markdown-blocks';
import { dryRun } from '../src/run/dry-run';
import { runBlocks } from '../src/run/run-blocks';
import type { BlockRun } from '../src/run/run-manifest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('a dry run of a block', () => {
  it('runs every call but those that reach a server or a port', () => {
    const code = `import { createClient } from 'redis';
const redis = await createClient({ url }).connect();
await store.ensureSchema();
createServer(createNodeHandler(plants)).listen(3000);
await ('end' in client ? client.end() : client.close());`;
    expect(dryRun(code)).toBe(`import { createClient } from 'redis';
const redis = await createClient({ url });
await store;
createServer(createNodeHandler(plants));
await ('end' in client ? client : client);
`);
  });
});

describe('the code blocks of the READMEs', () => {
  const blocks = markdownBlocks(root, readmes(root));
  // A block as the trial found packages/redis/README.md's: DPoP on, no publicUrl. Run in the same
  // child as the READMEs' own, it shows what a README that throws at start-up would report.
  const broken: MarkdownBlock = {
    page: 'broken/README.md',
    line: 1,
    runtime: undefined,
    code: [
      "import { createPlantService, dpopBinding, jwtBearer } from '@plantstore/core';",
      'createPlantService({ store, auth: jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding() }) });',
    ].join('\n'),
  };
  let runs: BlockRun[] = [];
  beforeAll(async () => {
    runs = await runBlocks(root, [...blocks, broken]);
  }, 90_000);

  it('run as a reader pastes them, with every factory they call accepting its options', () => {
    expect(blocks.length).toBeGreaterThan(12);
    expect(runs.map((run) => run.where)).toEqual([
      ...blocks.map((block) => `${block.page}:${block.line}`),
      'broken/README.md:1',
    ]);
    expect(runs.slice(0, -1).filter((run) => run.error !== undefined)).toEqual([]);
  });

  it('fail on a factory that refuses its options, with the page, the line and the error', () => {
    expect(runs.at(-1)).toEqual({
      where: 'broken/README.md:1',
      error:
        'TypeError: Plantstore: option "publicUrl" is required when the auth accepts DPoP (proofs name the URL they were made for); received nothing',
    });
  });
});

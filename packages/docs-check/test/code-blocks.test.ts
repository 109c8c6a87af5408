import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  blockCompilerOptions,
  type CodeBlock,
  packageSourcePaths,
  typeCheckBlocks,
} from '../src/index';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');

/** Every Markdown file a user reads: the README, docs/, and each package's and example's README. */
function markdownFiles(): string[] {
  const files = [join(root, 'README.md')];
  for (const name of readdirSync(join(root, 'docs'))) {
    if (name.endsWith('.md')) files.push(join(root, 'docs', name));
  }
  for (const folder of ['packages', 'examples']) {
    for (const name of readdirSync(join(root, folder))) {
      const readme = join(root, folder, name, 'README.md');
      try {
        readFileSync(readme);
        files.push(readme);
      } catch {
        // No README in this folder.
      }
    }
  }
  return files;
}

/** Which globals a block takes as given: its page's framework, or the runtime its fence names. */
type Host = 'express' | 'koa' | 'fastify' | 'bun' | 'deno';

interface Block extends CodeBlock {
  readonly host: Host;
}

// A page about an example is checked as a file of that example: `./app` and the example's own
// dependencies resolve as they do there. Other pages are checked here.
const HOMES: Readonly<Record<string, string>> = {
  'docs/express.md': 'examples/express/src',
  'docs/koa.md': 'examples/koa/src',
  'docs/nestjs.md': 'examples/nestjs/src',
  'docs/custom-storage.md': 'examples/custom-storage/src',
  'docs/hooks.md': 'examples/opentelemetry/src',
  'docs/h3.md': 'examples/h3/src',
  'docs/elysia.md': 'examples/elysia/src',
  'docs/sveltekit.md': 'examples/sveltekit/src',
  'examples/api-reference/README.md': 'examples/api-reference/src',
  'packages/koa/README.md': 'packages/koa/src',
  'packages/express/README.md': 'packages/express/src',
  'packages/fastify/README.md': 'packages/fastify/src',
  'packages/mysql/README.md': 'packages/mysql/src',
  'packages/dynamodb/README.md': 'packages/dynamodb/src',
  'packages/postgres/README.md': 'packages/postgres/src',
  'packages/redis/README.md': 'packages/redis/src',
};

// docs/openapi.md is about a generated client: packages/adoption type-checks its blocks against the
// generated types, with openapi-fetch installed there. docs/first-hour.md's blocks are files that
// import each other (`./auth.js`) and packages installed from npm (@koa/bodyparser, redis 6, vitest):
// packages/adoption/src/first-hour.mjs writes them into scratch npm projects, type-checks them with
// tsc (strict) and runs them.
// docs/your-database.md's blocks are the files of examples/your-database, which that example
// type-checks (with the ORMs installed there) and runs; example-blocks.test.ts holds the page to them.
const CHECKED_ELSEWHERE = new Set([
  'docs/openapi.md',
  'docs/first-hour.md',
  'docs/your-database.md',
]);

// A fence may name the runtime the block runs on (```ts bun, ```ts deno): it is checked with that
// runtime's globals (`Bun`, `Deno`).
const FENCE = /^```(?:ts|typescript)(?: (bun|deno))?[^\n]*\n([\s\S]*?)^```/gm;

function codeBlocks(): Block[] {
  const blocks: Block[] = [];
  for (const file of markdownFiles()) {
    if (CHECKED_ELSEWHERE.has(relative(root, file))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(FENCE)) {
      const line = text.slice(0, match.index).split('\n').length;
      const page = relative(root, file);
      const where = `${page}:${line}`;
      const home = HOMES[page] === undefined ? join(here, '.blocks') : join(root, HOMES[page]);
      const fileName = join(home, `__doc_${where.replace(/[/:.]/g, '_')}.ts`);
      const runtime = match[1] as 'bun' | 'deno' | undefined;
      const host: Host =
        runtime ?? (/koa/i.test(page) ? 'koa' : /fastify/i.test(page) ? 'fastify' : 'express');
      // Each block is a module of its own: its names cannot clash with another block's.
      blocks.push({ where, fileName, host, code: `${match[2] ?? ''}\nexport {};\n` });
    }
  }
  return blocks;
}

const options = blockCompilerOptions({
  resolveJsonModule: true,
  // NestJS's decorators (docs/nestjs.md) are the legacy ones; no other block uses decorators.
  experimentalDecorators: true,
  verbatimModuleSyntax: false,
  baseUrl: root,
  paths: packageSourcePaths(root),
});

describe('the code blocks of the docs', () => {
  const blocks = codeBlocks();

  it('are found in the README and docs/', () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it.each(['express', 'koa', 'fastify', 'bun', 'deno'] as const)(
    'about %s type-check against the packages as they are',
    (hostName) => {
      const globals = [
        join(here, 'snippet-globals.d.ts'),
        join(here, `snippet-globals-${hostName}.d.ts`),
      ];
      const mine = blocks.filter((block) => block.host === hostName);
      const problems = typeCheckBlocks(
        mine,
        options,
        new Map(globals.map((path) => [path, undefined])),
      );
      expect(problems).toEqual([]);
    },
    120_000,
  );
});

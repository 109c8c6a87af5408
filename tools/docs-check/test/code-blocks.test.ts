import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  blockCompilerOptions,
  type CodeBlock,
  packageSourcePaths,
  typeCheckBlocks,
} from '../src/index';
import { docsPages, markdownBlocks, readmes, readmesUnder } from '../src/blocks/markdown-blocks';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');

/** Every Markdown file a user reads: the READMEs, docs/, and each example's README. */
function markdownFiles(): string[] {
  return [...readmes(root), ...docsPages(root), ...readmesUnder(root, 'examples')];
}

/** Which globals a block takes as given: its page's framework, or the runtime its fence names. */
type Host = 'express' | 'koa' | 'fastify' | 'bun' | 'deno';

interface Block extends CodeBlock {
  readonly host: Host;
}

// A page about an example is checked as a file of that example: `./app` and the example's own
// dependencies resolve as they do there. Other pages are checked here.
const HOMES: Readonly<Record<string, string>> = {
  'docs/hosts/express.md': 'examples/express/src',
  'docs/hosts/koa.md': 'examples/koa/src',
  'docs/hosts/nestjs.md': 'examples/nestjs/src',
  'docs/stores/custom-store.md': 'examples/custom-storage/src',
  'docs/guides/hooks.md': 'examples/opentelemetry/src',
  'docs/hosts/h3.md': 'examples/h3/src',
  'docs/hosts/elysia.md': 'examples/elysia/src',
  'docs/hosts/sveltekit.md': 'examples/sveltekit/src',
  'examples/api-reference/README.md': 'examples/api-reference/src',
  'packages/koa/README.md': 'packages/koa/src',
  'packages/express/README.md': 'packages/express/src',
  'packages/fastify/README.md': 'packages/fastify/src',
  'packages/mysql/README.md': 'packages/mysql/src',
  'packages/dynamodb/README.md': 'packages/dynamodb/src',
  'packages/postgres/README.md': 'packages/postgres/src',
  'packages/redis/README.md': 'packages/redis/src',
  'packages/amqp/README.md': 'packages/amqp/src',
  'packages/nats/README.md': 'packages/nats/src',
};

// docs/guides/openapi.md is about a generated client: tools/adoption type-checks its blocks against the
// generated types, with openapi-fetch installed there. docs/guides/first-hour.md's blocks are files that
// import each other (`./auth.js`) and packages installed from npm (@koa/bodyparser, redis 6, vitest):
// tools/adoption/src/first-hour.mjs writes them into scratch npm projects, type-checks them with
// tsc (strict) and runs them.
// docs/stores/your-orm.md's blocks are the files of examples/your-database, which that example
// type-checks (with the ORMs installed there) and runs; example-blocks.test.ts holds the page to them.
const CHECKED_ELSEWHERE = new Set([
  'docs/guides/openapi.md',
  'docs/guides/first-hour.md',
  'docs/stores/your-orm.md',
]);

function codeBlocks(): Block[] {
  const pages = markdownFiles().filter((page) => !CHECKED_ELSEWHERE.has(page));
  return markdownBlocks(root, pages).map(({ page, line, runtime, code }) => {
    const where = `${page}:${line}`;
    const home = HOMES[page] === undefined ? join(here, '.blocks') : join(root, HOMES[page]);
    const host: Host =
      runtime ?? (/koa/i.test(page) ? 'koa' : /fastify/i.test(page) ? 'fastify' : 'express');
    // Each block is a module of its own: its names cannot clash with another block's.
    return {
      where,
      fileName: join(home, `__doc_${where.replace(/[/:.]/g, '_')}.ts`),
      host,
      code: `${code}\nexport {};\n`,
    };
  });
}

const options = blockCompilerOptions({
  resolveJsonModule: true,
  // NestJS's decorators (docs/hosts/nestjs.md) are the legacy ones; no other block uses decorators.
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

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { type CodeBlock, typeCheckBlocks } from '../src/index';

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

type Host = 'express' | 'koa' | 'fastify';

interface Block extends CodeBlock {
  /** Which globals the block takes as given: its page is about Express, Koa or Fastify. */
  readonly host: Host;
}

// A page about an example is checked as a file of that example: `./app` and the example's own
// dependencies resolve as they do there. Other pages are checked here.
const HOMES: Readonly<Record<string, string>> = {
  'docs/express.md': 'examples/express/src',
  'docs/koa.md': 'examples/koa/src',
  'docs/custom-storage.md': 'examples/custom-storage/src',
  'docs/hooks.md': 'examples/opentelemetry/src',
  'packages/koa/README.md': 'packages/koa/src',
  'packages/express/README.md': 'packages/express/src',
  'packages/fastify/README.md': 'packages/fastify/src',
  'packages/postgres/README.md': 'packages/postgres/src',
};

// docs/openapi.md is about a generated client: packages/adoption type-checks its blocks against the
// generated types, with openapi-fetch installed there.
const CHECKED_ELSEWHERE = new Set(['docs/openapi.md']);

const FENCE = /^```(?:ts|typescript)[^\n]*\n([\s\S]*?)^```/gm;

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
      const host: Host = /koa/i.test(page) ? 'koa' : /fastify/i.test(page) ? 'fastify' : 'express';
      // Each block is a module of its own: its names cannot clash with another block's.
      blocks.push({ where, fileName, host, code: `${match[1] ?? ''}\nexport {};\n` });
    }
  }
  return blocks;
}

const source = (path: string): string[] => [join(root, 'packages', path)];

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  types: ['node'],
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  resolveJsonModule: true,
  verbatimModuleSyntax: false,
  baseUrl: root,
  paths: {
    '@plantstore/core': source('core/src/index.ts'),
    '@plantstore/core/testing': source('core/src/testing/index.ts'),
    '@plantstore/express': source('express/src/index.ts'),
    '@plantstore/fastify': source('fastify/src/index.ts'),
    '@plantstore/koa': source('koa/src/index.ts'),
    '@plantstore/postgres': source('postgres/src/index.ts'),
  },
};

describe('the code blocks of the docs', () => {
  const blocks = codeBlocks();

  it('are found in the README and docs/', () => {
    expect(blocks.length).toBeGreaterThan(20);
  });

  it.each(['express', 'koa', 'fastify'] as const)(
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

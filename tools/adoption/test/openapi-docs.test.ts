import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { blockCompilerOptions, packageSourcePaths, typeCheckBlocks } from '@plantstore/docs-check';
import { generateTestTypes } from './generated-types';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const page = join(root, 'docs/guides/openapi.md');

interface Block {
  /** `docs/guides/openapi.md:42`, for failure messages. */
  readonly where: string;
  readonly fileName: string;
  readonly code: string;
}

/**
 * The `ts` and `js` blocks of docs/guides/openapi.md as modules beside the generated types, so that
 * `./plantstore-api` is what openapi-typescript generates: in `generated/` for the blocks before the
 * "int64" section, in `generated/int64/` (int64 as bigint) for the blocks of that section. The types
 * are generated afresh for the check, as virtual files: it reads nothing a previous run wrote.
 */
function blocks(): Block[] {
  const text = readFileSync(page, 'utf8');
  const found: Block[] = [];
  let int64 = false;
  let line = 0;
  let open: { lang: string; start: number; lines: string[] } | undefined;
  for (const content of text.split('\n')) {
    line += 1;
    if (open === undefined) {
      if (content.startsWith('## ')) int64 = content.includes('int64');
      const fence = /^```(ts|js)$/u.exec(content);
      if (fence !== null) open = { lang: fence[1] ?? 'ts', start: line, lines: [] };
    } else if (content === '```') {
      const folder = join(here, 'generated', int64 ? 'int64' : '');
      found.push({
        where: `${relative(root, page)}:${open.start}`,
        fileName: join(folder, `docs-block-${open.start}.${open.lang === 'js' ? 'mjs' : 'ts'}`),
        code: `${open.lines.join('\n')}\nexport {};\n`,
      });
      open = undefined;
    } else open.lines.push(content);
  }
  return found;
}

/** What the blocks take as given: the reader's own settings and objects. */
const GLOBALS = `
declare const jwksUri: string;
declare const issuer: string;
declare const audience: string;
declare const store: import('@plantstore/core').PlantStore;
`;

describe('the code blocks of docs/guides/openapi.md', () => {
  const found = blocks();

  it('are found', () => {
    expect(found.length).toBeGreaterThanOrEqual(6);
  });

  it('show the same jsonWithBigInt the tests use', () => {
    const tested = readFileSync(join(here, 'json-with-bigint.ts'), 'utf8');
    const documented = found.map((block) => block.code).join('\n');
    expect(documented).toContain(tested.trim());
  });

  it('type-check against the packages and the generated types', async () => {
    const options = blockCompilerOptions({
      allowJs: true,
      checkJs: true,
      paths: {
        ...packageSourcePaths(root),
        '@koa/router': [join(root, 'packages/koa/node_modules/@koa/router')],
        // The hosts of the "In your app's own document" section, from where they are installed.
        fastify: [join(root, 'packages/fastify/node_modules/fastify')],
        '@fastify/swagger': [join(root, 'packages/fastify/node_modules/@fastify/swagger')],
        '@nestjs/common': [join(root, 'examples/nestjs/node_modules/@nestjs/common')],
        '@nestjs/swagger': [join(root, 'examples/nestjs/node_modules/@nestjs/swagger')],
      },
    });
    const declarations = new Map([[join(here, 'generated', 'docs-globals.d.ts'), GLOBALS]]);
    for (const [path, source] of await generateTestTypes()) {
      declarations.set(join(here, 'generated', path), source);
    }
    const problems = typeCheckBlocks(found, options, declarations);
    expect(problems).toEqual([]);
  }, 120_000);
});

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { countWords } from '../src/reading/count-words';
import { readingList, WORD_BUDGET, wordsOf } from '../src/reading/reading-list';
import { sections, slug } from '../src/reading/sections';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('countWords', () => {
  it('counts prose, table cells and code, and not markers, link targets or lone punctuation', () => {
    expect(countWords('Read [the guide](guide.md#install): `npm install x`.')).toBe(6);
    expect(countWords('<!-- first-hour: a/b.ts -->\n\n```ts\nconst a = 1;\n});\n```')).toBe(3);
    expect(countWords('| a | b |\n| - | - |\n| 1,500 | words |')).toBe(4);
  });
});

describe('sections', () => {
  const page = [
    '# Title',
    'intro words',
    '## A. First, one',
    'text',
    '```sh',
    '# not a heading',
    '```',
    '### Sub `code`',
    'more',
    '## Usage',
    '## Usage',
  ].join('\n');

  it('splits at headings outside code blocks, with GitHub anchors', () => {
    const { intro, sections: found } = sections(page);
    expect(intro).toBe('# Title\nintro words');
    expect(found.map((section) => section.anchor)).toStrictEqual([
      'title',
      'a-first-one',
      'sub-code',
      'usage',
      'usage-1',
    ]);
    expect(found[1]?.text).toBe(
      '## A. First, one\ntext\n```sh\n# not a heading\n```\n### Sub `code`\nmore',
    );
  });

  it('writes anchors as GitHub does', () => {
    expect(slug('A. An existing Express 5 app, on PostgreSQL')).toBe(
      'a-an-existing-express-5-app-on-postgresql',
    );
    expect(slug('With and without nodejs_compat')).toBe('with-and-without-nodejs_compat');
  });
});

describe("docs/README.md's reading list", () => {
  const tasks = readingList(root, 'docs/README.md');

  it('has a row for every host and store the project ships, and for the providers, each within the budget, each figure the count', () => {
    const readers = [
      'Express',
      'Koa',
      'Fastify',
      'NestJS',
      'Next.js',
      'SvelteKit',
      'h3',
      'Elysia',
      'Hono, Bun or Deno',
      'Cloudflare Workers',
      'AWS Lambda',
      'node:http',
      'in memory',
      'PostgreSQL server',
      'PGlite',
      'MySQL or MariaDB',
      'Redis',
      'DynamoDB',
      'Cloudflare D1',
      'a system of your own',
      "a provider's preset",
    ];
    expect(readers.filter((reader) => !tasks.some((task) => task.task.includes(reader)))).toEqual(
      [],
    );
    for (const task of tasks) {
      expect(task.counted).toBeLessThanOrEqual(WORD_BUDGET);
      expect(task.stated).toBe(task.counted);
    }
  });

  it('reads a page whole when only linked whole, else its top and the linked sections', () => {
    const whole = wordsOf(root, 'docs/README.md', ['hosts/cloudflare-workers.md']);
    const top = wordsOf(root, 'docs/README.md', [
      'hosts/cloudflare-workers.md',
      'hosts/cloudflare-workers.md#install',
    ]);
    expect(top).toBeLessThan(whole);
    expect(() => wordsOf(root, 'docs/README.md', ['#no-such-section'])).toThrow(
      'docs/README.md: docs/README.md#no-such-section is no section',
    );
  });
});

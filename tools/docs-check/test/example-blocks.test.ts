import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

// Pages whose code blocks are files of an example, each fence naming its file by `title`: there
// the example type-checks the files and its tests run them, and this test holds the page to them.
const PAGES: Readonly<Record<string, string>> = {
  'docs/stores/your-orm.md': 'examples/your-database/src',
};

const FENCE = /^```(?:ts|typescript) title="([^"]+)"\n([\s\S]*?)^```/gm;
const ANY_FENCE = /^```(?:ts|typescript)\b/gm;

/** The example's files a page shows: its sources, without tests, test helpers or declarations. */
function shownFiles(folder: string): string[] {
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.ts') && !/\.(test|test-support|d)\.ts$/.test(name))
    .map((name) => `${folder}/${name}`)
    .sort();
}

describe.each(Object.entries(PAGES))('the code blocks of %s', (page, folder) => {
  const text = readFileSync(join(root, page), 'utf8');
  const blocks = [...text.matchAll(FENCE)].map(([, file = '', code = '']) => ({ file, code }));

  it('each name the file they are, by title', () => {
    expect(blocks.length).toBe([...text.matchAll(ANY_FENCE)].length);
  });

  it.each(blocks.map((block) => [block.file, block] as const))(
    '%s is the file as it is',
    (file, block) => {
      expect(file.startsWith(`${folder}/`)).toBe(true);
      expect(block.code).toBe(readFileSync(join(root, file), 'utf8'));
    },
  );

  it('show every file of the example, once', () => {
    expect(blocks.map((block) => block.file).sort()).toEqual(shownFiles(folder));
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// docs/stores/custom-store.md shows whole files of this example for a reader to copy into their own
// project; a block fenced as ```ts title="src/…" must be that file, to the character, so that what
// the reader copies is what these tests and the type-check run.
const page = readFileSync(new URL('../../../docs/stores/custom-store.md', import.meta.url), 'utf8');
const files = [...page.matchAll(/^```ts title="(src\/[^"]+)"\n([\s\S]*?)^```$/gm)].map(
  ([, path = '', code = '']) => [path, code] as const,
);

describe('docs/stores/custom-store.md', () => {
  it('shows the whole store and its conformance test', () => {
    expect(files.map(([path]) => path)).toEqual(['src/mongo-store.ts', 'src/mongo-store.test.ts']);
  });

  it.each(files)('shows %s as the example has it', (path, code) => {
    expect(code).toBe(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
  });
});

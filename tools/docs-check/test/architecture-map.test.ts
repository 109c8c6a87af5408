import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The map a newcomer reads first must point at the code that does each step: docs/reference/architecture.md
// (and the Guards table of docs/reference/security.md) name core paths, and after a path the names that do it.
const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const coreSource = join(root, 'packages/core/src');
const FOLDERS = 'auth|body|common|entries|errors|events|http|openapi|options|plant|service|testing';
// A core path: a folder of the core, then file or folder names (`auth/jwt/`, `body/read-body.ts`).
const CORE_PATH = new RegExp(`(?<![\\w/.-])(?:${FOLDERS})/[\\w./-]*`, 'g');
// "`path.ts`: `nameA`, `nameB`" names what does the rule in that file.
const PATH_AND_NAMES = new RegExp(
  `\`((?:${FOLDERS})/[\\w./-]+\\.ts)\`: ((?:\`\\w+\`(?:, |(?=\\W)))+)`,
  'g',
);

function read(relativePath: string): string {
  return readFileSync(join(root, relativePath), 'utf8');
}

function corePaths(markdown: string): string[] {
  return [...new Set([...markdown.matchAll(CORE_PATH)].map(([path]) => path.replace(/\.$/, '')))];
}

function namedSymbols(markdown: string): { path: string; name: string }[] {
  return [...markdown.matchAll(PATH_AND_NAMES)].flatMap(([, path, names]) =>
    [...(names ?? '').matchAll(/`(\w+)`/g)].map(([, name]) => ({
      path: path ?? '',
      name: name ?? '',
    })),
  );
}

describe.each(['docs/reference/architecture.md', 'docs/reference/security.md'])('%s', (page) => {
  const markdown = read(page);

  it('names only core paths that exist', () => {
    const paths = corePaths(markdown);
    expect(paths.length).toBeGreaterThan(page === 'docs/reference/architecture.md' ? 40 : 8);
    expect(paths.filter((path) => !existsSync(join(coreSource, path)))).toEqual([]);
  });

  it('names, after a path, only what that file holds', () => {
    const symbols = namedSymbols(markdown);
    if (page === 'docs/reference/architecture.md') expect(symbols.length).toBeGreaterThan(25);
    const missing = symbols.filter(
      ({ path, name }) =>
        !new RegExp(`\\b${name}\\b`).test(readFileSync(join(coreSource, path), 'utf8')),
    );
    expect(missing).toEqual([]);
  });
});

describe('docs/reference/architecture.md', () => {
  const markdown = read('docs/reference/architecture.md');

  it('finds jose, the option checks and the schema step in one guess each', () => {
    expect(markdown).toContain('jose, called in `auth/jwt/issuer-verifier.ts`: `jwtVerify`');
    expect(markdown).toContain('`service/service-options.ts`: `resolveOptions`');
    expect(markdown).toContain('called in `service/route-service.ts`: `validatePlant`');
  });

  it('draws the steps in the order route-service.ts runs them', () => {
    const service = read('packages/core/src/service/route-service.ts');
    const handle = service.slice(service.indexOf('const handle'));
    // Steps 2 and 3 are the auth step the guards share (service/request-auth.ts), in that order.
    const auth = read('packages/core/src/service/request-auth.ts');
    expect(auth.indexOf('readCredentials(')).toBeGreaterThan(0);
    expect(auth.indexOf('config.verify(')).toBeGreaterThan(auth.indexOf('readCredentials('));
    const steps: readonly (readonly [string, string])[] = [
      ['2 credentials', 'auth.authenticate('],
      ['3 token', 'auth.authenticate('],
      ['4 content type', 'assertJsonBody('],
      ['5 body', 'readPlantBody('],
      ['6 schema', 'validatePlant('],
      ['7 store', 'insertPlant('],
      ['8 answer', 'plantAnswer('],
    ];
    const inDiagram = steps.map(([label]) => markdown.indexOf(label));
    const inService = steps.map(([, call]) => handle.indexOf(call));
    expect([...inDiagram, ...inService].every((position) => position > 0)).toBe(true);
    expect([...inDiagram].sort((a, b) => a - b)).toEqual(inDiagram);
    expect([...inService].sort((a, b) => a - b)).toEqual(inService);
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPublishedPackages } from '../src/published/check-published-packages';
import { publishedFiles } from '../src/published/published-files';
import { canonicalRepository, expectedFields } from '../src/published/repository';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const WEB = 'https://github.com/acme/plants';
const ROOT_MANIFEST = {
  name: 'plants',
  private: true,
  repository: { type: 'git', url: `git+${WEB}.git` },
  homepage: `${WEB}#readme`,
  bugs: `${WEB}/issues`,
};
const DEMO_FIELDS = {
  repository: { type: 'git', url: `git+${WEB}.git`, directory: 'packages/demo' },
  homepage: `${WEB}/tree/main/packages/demo#readme`,
  bugs: `${WEB}/issues`,
};

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * A repository in a temporary folder: the root package.json, a published `packages/demo` with the
 * given README, a private package, a doc and an example; every file tracked (`git add`).
 */
function repository(readme: string, demo: object = DEMO_FIELDS): string {
  const folder = mkdtempSync(join(tmpdir(), 'published-links-'));
  folders.push(folder);
  const files: Record<string, string> = {
    'package.json': JSON.stringify(ROOT_MANIFEST),
    'docs/guide.md': '# Guide\n',
    'examples/demo/app.ts': 'export {};\n',
    'packages/demo/package.json': JSON.stringify({
      name: '@acme/demo',
      ...demo,
      files: ['dist', 'CHANGELOG.md'],
    }),
    'packages/demo/README.md': readme,
    'packages/demo/CHANGELOG.md': '# @acme/demo\n\nSee the [README](README.md).\n',
    'packages/demo/src/index.ts': 'export {};\n',
    'packages/internal/package.json': JSON.stringify({ name: '@acme/internal', private: true }),
    'packages/internal/README.md': 'See [the guide](../../docs/guide.md).\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  execFileSync('git', ['init', '--quiet'], { cwd: folder });
  execFileSync('git', ['add', '--all'], { cwd: folder });
  return folder;
}

describe('checkPublishedPackages', () => {
  it('passes a package whose fields and links all hold', () => {
    const folder = repository(
      [
        '# @acme/demo',
        '',
        `Part of [Plants](${WEB}#readme); see [the guide](${WEB}/blob/main/docs/guide.md#install),`,
        `[the example](${WEB}/tree/main/examples/demo), the [changes](./CHANGELOG.md) and [Usage](#usage).`,
        '',
        '```sh',
        'cat ../../docs/guide.md',
        '```',
        '',
        'Not a link: `[guide](../../docs/guide.md)`.',
      ].join('\n'),
    );
    expect(checkPublishedPackages(folder)).toEqual({
      packages: ['packages/demo'],
      pages: ['packages/demo/CHANGELOG.md', 'packages/demo/README.md'],
      problems: [],
      fixed: [],
    });
  });

  it('fails a link that climbs out of the package, and names the link to use instead', () => {
    const folder = repository('See [the guide](../../docs/guide.md#install).\n');
    expect(checkPublishedPackages(folder).problems).toEqual([
      `packages/demo/README.md:1: ../../docs/guide.md#install leaves the package, so it breaks once published; link ${WEB}/blob/main/docs/guide.md#install instead`,
    ]);
  });

  it('fails a link to a folder outside the package with a tree link', () => {
    const folder = repository('\nRun [the example](../../examples/demo).\n');
    expect(checkPublishedPackages(folder).problems).toEqual([
      `packages/demo/README.md:2: ../../examples/demo leaves the package, so it breaks once published; link ${WEB}/tree/main/examples/demo instead`,
    ]);
  });

  it('fails an absolute link to a file the repository does not have', () => {
    const folder = repository(`See [the guide](${WEB}/blob/main/docs/missing.md#install).\n`);
    expect(checkPublishedPackages(folder).problems).toEqual([
      `packages/demo/README.md:1: ${WEB}/blob/main/docs/missing.md#install: docs/missing.md is not in the repository`,
    ]);
  });

  it('fails a relative link to a missing file, and one to a file npm does not pack', () => {
    const folder = repository('[Missing](missing.md) and [the source](src/index.ts).\n');
    expect(checkPublishedPackages(folder).problems).toEqual([
      'packages/demo/README.md:1: missing.md does not exist',
      'packages/demo/README.md:1: src/index.ts is not published: package.json "files" leaves src/index.ts out',
    ]);
  });

  it('fails a package without repository, homepage and bugs, naming the values expected', () => {
    const folder = repository('# @acme/demo\n', {
      repository: { type: 'git', url: `git+${WEB}.git` },
    });
    expect(checkPublishedPackages(folder).problems).toEqual([
      `packages/demo/package.json: "repository" is {"type":"git","url":"git+${WEB}.git"}; expected {"type":"git","url":"git+${WEB}.git","directory":"packages/demo"}`,
      `packages/demo/package.json: "homepage" is missing; expected "${WEB}/tree/main/packages/demo#readme"`,
      `packages/demo/package.json: "bugs" is missing; expected "${WEB}/issues"`,
    ]);
  });

  it('fails links into the repository the package named before the root changed', () => {
    const old = 'https://github.com/old/plants';
    const folder = repository(`Part of [Plants](${old}#readme).\n`, {
      ...DEMO_FIELDS,
      repository: { ...DEMO_FIELDS.repository, url: `git+${old}.git` },
    });
    expect(checkPublishedPackages(folder).problems).toEqual([
      `packages/demo/package.json: "repository" is {"type":"git","url":"git+${old}.git","directory":"packages/demo"}; expected {"type":"git","url":"git+${WEB}.git","directory":"packages/demo"}`,
      `packages/demo/README.md:1: ${old}#readme points at ${old}, not at the canonical ${WEB}`,
    ]);
  });

  it('with fix, writes the fields and the links it names, and leaves what it cannot fix', () => {
    const old = 'https://github.com/old/plants';
    const readme = [
      `Part of [Plants](${old}#readme): [the guide](../../docs/guide.md#install),`,
      '[the example](../../examples/demo), [the guide again](../../docs/guide.md) and [gone](gone.md).',
    ].join('\n');
    const folder = repository(readme, { license: 'MIT', repository: `${old}.git` });
    const { problems, fixed } = checkPublishedPackages(folder, { fix: true });
    expect(problems).toEqual(['packages/demo/README.md:2: gone.md does not exist']);
    expect(fixed).toEqual([
      `packages/demo/package.json: "repository" is "${old}.git"; expected {"type":"git","url":"git+${WEB}.git","directory":"packages/demo"}`,
      `packages/demo/package.json: "homepage" is missing; expected "${WEB}/tree/main/packages/demo#readme"`,
      `packages/demo/package.json: "bugs" is missing; expected "${WEB}/issues"`,
      `packages/demo/README.md:1: ${old}#readme points at ${old}, not at the canonical ${WEB}`,
      `packages/demo/README.md:1: ../../docs/guide.md#install leaves the package, so it breaks once published; link ${WEB}/blob/main/docs/guide.md#install instead`,
      `packages/demo/README.md:2: ../../examples/demo leaves the package, so it breaks once published; link ${WEB}/tree/main/examples/demo instead`,
      `packages/demo/README.md:2: ../../docs/guide.md leaves the package, so it breaks once published; link ${WEB}/blob/main/docs/guide.md instead`,
    ]);
    expect(readFileSync(join(folder, 'packages/demo/README.md'), 'utf8')).toBe(
      [
        `Part of [Plants](${WEB}#readme): [the guide](${WEB}/blob/main/docs/guide.md#install),`,
        `[the example](${WEB}/tree/main/examples/demo), [the guide again](${WEB}/blob/main/docs/guide.md) and [gone](gone.md).`,
      ].join('\n'),
    );
    const manifest = JSON.parse(
      readFileSync(join(folder, 'packages/demo/package.json'), 'utf8'),
    ) as object;
    // Fields it has stay in place; new ones follow `license`.
    expect(Object.keys(manifest)).toEqual([
      'name',
      'license',
      'homepage',
      'bugs',
      'repository',
      'files',
    ]);
    expect(manifest).toMatchObject(DEMO_FIELDS);
    expect(checkPublishedPackages(folder).problems).toEqual([
      'packages/demo/README.md:2: gone.md does not exist',
    ]);
  });
});

describe('the published packages of this repository', () => {
  it('point at their folder, and every link of their published pages holds', () => {
    const report = checkPublishedPackages(root);
    expect(report.packages).toEqual(
      'amqp aws-lambda cloudflare core dynamodb express fastify koa mysql nats postgres redis'
        .split(' ')
        .map((name) => `packages/${name}`),
    );
    expect(report.problems).toEqual([]);
  });

  it('are packed by npm with these fields and exactly these Markdown pages', () => {
    const folder = mkdtempSync(join(tmpdir(), 'published-pack-'));
    folders.push(folder);
    const core = join(root, 'packages/core');
    // A real `npm pack`: the tarball is what the registry shows, its package.json included.
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], {
        cwd: core,
        encoding: 'utf8',
        // npm's warnings (pnpm's settings it does not know) would only clutter the run.
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    ) as [{ filename: string; files: { path: string }[] }];
    const manifest = JSON.parse(
      execFileSync('tar', ['-xzOf', join(folder, packed.filename), 'package/package.json'], {
        encoding: 'utf8',
      }),
    ) as Record<string, unknown>;
    const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as object;
    expect({
      repository: manifest['repository'],
      homepage: manifest['homepage'],
      bugs: manifest['bugs'],
    }).toEqual(expectedFields(canonicalRepository(rootManifest), 'packages/core'));
    const markdown = packed.files.map(({ path }) => path).filter((path) => path.endsWith('.md'));
    expect(publishedFiles(core, manifest).markdown).toEqual(markdown.sort());
    // npm's own start and pack: a few seconds alone, far more beside CI's other suites.
  }, 90_000);
});

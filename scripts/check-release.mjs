#!/usr/bin/env node
// The release a maintainer would cut from this commit, done for real in a throwaway clone and checked:
// `changeset status` (the plan) and `changeset version` (the files) run on a clone of HEAD, never on
// this working tree, then every public package must reach the intended version (one version for the
// `fixed` group, never a major by accident) with a CHANGELOG.md that has a section for it, and every
// private package must stay private, unversioned and without a changelog.
//
//   node scripts/check-release.mjs            # the check (CI, `pnpm check:release`)
//   node scripts/check-release.mjs --print    # also prints each package's new changelog section
//   node scripts/check-release.mjs --expect 0.2.0
//
// The intended version is `--expect`, else 0.1.0 while the packages are at 0.0.0 (the first release),
// else any version above the current one that keeps 0.x at 0.x. Uncommitted changes are not seen.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const print = args.includes('--print');
const expectAt = args.indexOf('--expect');
const expected = expectAt >= 0 ? args[expectAt + 1] : undefined;
const changesetBin = join(root, 'node_modules', '@changesets', 'cli', 'bin.js');

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
/** Runs a command; a failure becomes an Error whose message is the command and what it printed. */
function run(cwd, command, commandArgs) {
  try {
    return execFileSync(command, commandArgs, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const said = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(`${[command, ...commandArgs].join(' ')} failed:\n${said}`, { cause: error });
  }
}

/** The workspace's packages (pnpm-workspace.yaml: packages/*, tools/* and examples/*) as found in `dir`. */
function workspacePackages(dir) {
  return ['packages', 'tools', 'examples'].flatMap((group) =>
    readdirSync(join(dir, group), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(join(dir, group, entry.name, 'package.json')),
      )
      .map((entry) => {
        const path = `${group}/${entry.name}`;
        return { path, manifest: readJson(join(dir, path, 'package.json')) };
      }),
  );
}

/** "0.1.0" → [0, 1, 0]; prerelease tags are not used by this project. */
const parts = (version) => version.split('.').map(Number);
const greater = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

/** What a public package's new version must be, or why the version it reached is wrong. */
function versionProblem(oldVersion, newVersion) {
  if (expected !== undefined) return newVersion === expected ? undefined : `expected ${expected}`;
  if (oldVersion === '0.0.0') return newVersion === '0.1.0' ? undefined : 'expected 0.1.0';
  if (!greater(newVersion, oldVersion)) return `not above ${oldVersion}`;
  if (parts(oldVersion)[0] === 0 && parts(newVersion)[0] !== 0) {
    return 'a 0.x package left 0.x (a `major` changeset?): 1.0 is a decision, not a bump';
  }
  return undefined;
}

const problems = [];
const work = mkdtempSync(join(tmpdir(), 'plantstore-release-'));
try {
  const clone = join(work, 'plantstore');
  run(root, 'git', ['clone', '--quiet', '--no-hardlinks', root, clone]);
  // The clone has no node_modules of its own: changesets resolves prettier and the workspace's
  // packages from here, and the install would cost a minute for nothing.
  symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
  const head = run(clone, 'git', ['log', '-1', '--format=%h %s']).trim();
  const config = readJson(join(clone, '.changeset', 'config.json'));
  const fixed = new Set(config.fixed.flat());
  const before = new Map(workspacePackages(clone).map((pkg) => [pkg.manifest.name, pkg]));
  const pending = readdirSync(join(clone, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );

  // The plan, as `pnpm changeset status` prints it (--since HEAD: no "changed without a changeset"
  // complaint, which belongs to a pull request, not to this check).
  run(clone, process.execPath, [changesetBin, 'status', '--since=HEAD', '--output=plan.json']);
  const plan = readJson(join(clone, 'plan.json'));
  rmSync(join(clone, 'plan.json'));
  const planned = new Map(plan.releases.map((release) => [release.name, release.newVersion]));

  run(clone, process.execPath, [changesetBin, 'version']);
  const after = new Map(workspacePackages(clone).map((pkg) => [pkg.manifest.name, pkg]));
  const changed = run(clone, 'git', ['status', '--porcelain', '--untracked-files=all'])
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));

  console.log(`release check on ${head}: ${pending.length} changeset(s)`);
  // Before the first release, entries belong in the release notes (.changeset/0.1.0-<package>.md):
  // any other changeset prints as a bullet after a note's last section. Said, not failed, so that a
  // branch can land first and be folded in after.
  const loose = pending.filter((file) => !file.startsWith('0.1.0-'));
  const firstRelease = [...before.values()].some(
    ({ manifest }) => !manifest.private && manifest.version === '0.0.0',
  );
  if (firstRelease && loose.length > 0) {
    console.log(
      `  note: not folded into the 0.1.0 notes yet (see CONTRIBUTING.md, "Changesets"): ${loose.join(', ')}`,
    );
  }
  for (const [name, { path, manifest }] of before) {
    const now = after.get(name)?.manifest;
    const changelog = join(clone, path, 'CHANGELOG.md');
    if (manifest.private) {
      const touched = changed.filter((file) => file.startsWith(`${path}/`));
      if (now?.private !== true) problems.push(`${name}: private before, not after versioning`);
      if (now?.version !== manifest.version)
        problems.push(`${name}: private, yet versioned to ${now?.version}`);
      if (planned.has(name)) problems.push(`${name}: private, yet in the release plan`);
      if (touched.length > 0) problems.push(`${name}: private, yet changed: ${touched.join(', ')}`);
      continue;
    }
    if (!fixed.has(name)) problems.push(`${name}: public but not in config.json's fixed group`);
    const oldVersion = manifest.version;
    const newVersion = now?.version ?? '(gone)';
    if (planned.size > 0 && planned.get(name) !== newVersion) {
      problems.push(
        `${name}: changeset status planned ${planned.get(name)}, version gave ${newVersion}`,
      );
    }
    if (pending.length > 0) {
      const why = versionProblem(oldVersion, newVersion);
      if (why !== undefined) problems.push(`${name}: ${oldVersion} → ${newVersion}, ${why}`);
    }
    const publishConfig = now?.publishConfig ?? {};
    if (publishConfig.access !== 'public' || publishConfig.provenance !== true) {
      problems.push(`${name}: publishConfig must be { "access": "public", "provenance": true }`);
    }
    const text = existsSync(changelog) ? readFileSync(changelog, 'utf8') : '';
    const section = text.split(/^## /m)[1] ?? '';
    if (pending.length > 0 && !section.startsWith(`${newVersion}\n`)) {
      problems.push(`${name}: CHANGELOG.md has no "## ${newVersion}" section at the top`);
    } else if (pending.length > 0 && section.trim().split('\n').length < 3) {
      problems.push(`${name}: the CHANGELOG.md section of ${newVersion} says nothing`);
    }
    if (/no release yet/i.test(text))
      problems.push(`${name}: CHANGELOG.md still says "No release yet"`);
    if (/^- [0-9a-f]{7}: /m.test(section)) problems.push(`${name}: commit hashes in CHANGELOG.md`);
    const headings = [...section.matchAll(/^#{3,4} (.+)$/gm)].map((match) => match[1]);
    console.log(`  ${name.padEnd(24)} ${oldVersion} → ${newVersion}  ${headings.join(' · ')}`);
    if (print) console.log(`\n## ${section.trimEnd()}\n`);
  }
  // The Version Packages pull request must pass `pnpm lint` (prettier --check) as it is written.
  const changelogs = [...after.values()]
    .filter(({ manifest }) => !manifest.private)
    .map(({ path }) => `${path}/CHANGELOG.md`)
    .filter((file) => existsSync(join(clone, file)));
  try {
    run(clone, process.execPath, [
      join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'),
      '--check',
      ...changelogs,
    ]);
  } catch (error) {
    problems.push(`the written CHANGELOG.md files fail prettier --check: ${error.message}`);
  }
  const left = readdirSync(join(clone, '.changeset')).filter((file) => file.endsWith('.md'));
  if (left.length > 0) problems.push(`changesets left after versioning: ${left.join(', ')}`);
} catch (error) {
  problems.push(error.message);
} finally {
  rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
  console.error(`\nThe release would not be right:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log('release check: every public package reaches its version; private ones stay put');
}

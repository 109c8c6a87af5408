// What the scripts that install Plantstore as a user will share: the packages, packing them into
// tarballs (checked), and running commands in a user's environment. Used by install-packed.mjs and
// first-hour.mjs.

import { execFile } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const root = fileURLToPath(new URL('../../../', import.meta.url));

/** The public packages, in dependency order. */
export const PACKAGES = [
  'core',
  'cloudflare',
  'dynamodb',
  'express',
  'fastify',
  'koa',
  'mysql',
  'postgres',
  'redis',
];

/** The environment of a user's shell: nothing pnpm set for this script, no NODE_PATH into the workspace. */
export function userEnvironment() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^(npm|pnpm)_/iu.test(key) || key === 'NODE_PATH' || key === 'INIT_CWD') delete env[key];
  }
  return env;
}

/**
 * Runs a command; resolves with its output, rejects with an error holding the output.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd: string, env?: NodeJS.ProcessEnv, timeout?: number, allowFailure?: boolean }} options
 *   `allowFailure`: resolve with a non-zero exit code instead of rejecting
 * @returns {Promise<{ code: number, stdout: string, stderr: string }>}
 */
export function run(
  command,
  args,
  { cwd, env = userEnvironment(), timeout = 240_000, allowFailure = false },
) {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve({ code: 0, stdout, stderr });
        else if (allowFailure && !error.killed && typeof error.code === 'number') {
          resolve({ code: error.code, stdout, stderr });
        } else {
          const shown = [command, ...args].map((a) =>
            a.includes(sep) ? relative(cwd, a) || a : a,
          );
          const why = error.killed ? `killed after ${timeout} ms` : `exit code ${error.code}`;
          reject(
            new Error(`${shown.join(' ')} (in ${cwd}): ${why}\n${stdout}${stderr}`.trimEnd(), {
              cause: error,
            }),
          );
        }
      },
    );
  });
}

/** pnpm as this script was started by it (`node $npm_execpath`), else the one on PATH. */
export function pnpm(args, cwd) {
  const execpath = process.env.npm_execpath ?? '';
  if (/pnpm/u.test(basename(execpath)) && /\.[cm]?js$/u.test(execpath)) {
    return run(process.execPath, [execpath, ...args], { cwd, env: process.env });
  }
  return run(/pnpm/u.test(basename(execpath)) ? execpath : 'pnpm', args, { cwd, env: process.env });
}

/** Packs every package into `folder`; checks what pnpm wrote into each packed package.json. */
export async function packAll(folder) {
  const tarballs = {};
  for (const name of PACKAGES) {
    const cwd = join(root, 'packages', name);
    if (!existsSync(join(cwd, 'dist'))) {
      throw new Error(`packages/${name}/dist is missing: run \`pnpm build\` first.`);
    }
    const { stdout } = await pnpm(['pack', '--pack-destination', folder, '--json'], cwd);
    const packed = JSON.parse(stdout);
    // What the tarball really holds (pnpm's --json list omits the LICENSE it copies from the root).
    const listing = await run('tar', ['-tzf', packed.filename], { cwd: folder });
    const files = listing.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.replace(/^package\//u, ''));
    for (const required of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/index.js',
      'dist/index.cjs',
      'dist/index.d.ts',
      'dist/index.d.cts',
    ]) {
      if (!files.includes(required))
        throw new Error(`${packed.name}: the tarball has no ${required}.`);
    }
    const leaked = files.filter((file) => /(^|\/)(src|test)\/|\.test\.|tsconfig/u.test(file));
    if (leaked.length > 0)
      throw new Error(`${packed.name}: the tarball holds ${leaked.join(', ')}.`);
    const extracted = join(folder, name);
    await mkdir(extracted);
    await run('tar', ['-xzf', packed.filename, '-C', extracted, 'package/package.json'], {
      cwd: folder,
    });
    const manifest = JSON.parse(await readFile(join(extracted, 'package/package.json'), 'utf8'));
    const text = JSON.stringify(manifest);
    if (text.includes('workspace:')) {
      throw new Error(`${packed.name}: the packed package.json still says "workspace:": ${text}`);
    }
    tarballs[name] = { file: packed.filename, manifest };
  }
  const coreVersion = tarballs.core.manifest.version;
  for (const name of PACKAGES.slice(1)) {
    const range = tarballs[name].manifest.dependencies?.['@plantstore/core'];
    if (range !== `^${coreVersion}`) {
      throw new Error(
        `@plantstore/${name} depends on @plantstore/core "${range}", not "^${coreVersion}".`,
      );
    }
  }
  return {
    files: PACKAGES.map((name) => tarballs[name].file),
    summary: `${PACKAGES.map((name) => basename(tarballs[name].file)).join(', ')}; dependents on ^${coreVersion}`,
  };
}

/**
 * The steps of a check, each recorded with its outcome for the summary: its name, whether it passed,
 * how long it took, and what it saw (or the error).
 */
export function stepLog() {
  const results = [];
  /**
   * Runs one step; its failure is recorded, not thrown, so the other steps still run.
   *
   * @param {string} name
   * @param {() => Promise<unknown>} action
   * @returns {Promise<boolean>} whether it passed
   */
  async function timed(name, action) {
    const started = performance.now();
    try {
      const detail = await action();
      results.push({ name, ok: true, ms: performance.now() - started, detail });
      return true;
    } catch (error) {
      results.push({ name, ok: false, ms: performance.now() - started, error });
      return false;
    }
  }
  return { results, timed };
}

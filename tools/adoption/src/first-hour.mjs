#!/usr/bin/env node
// Does docs/guides/first-hour.md as a new user would, from the page alone: packs the packages, and for each
// of its tasks (express, koa, redis, provider) makes an empty npm project outside the workspace, runs
// the page's install commands (the tarballs in place of @plantstore/*), writes the page's code blocks
// to the files their markers name (`<!-- first-hour: express/server.ts -->` above a block), then runs
// the task's commands: `npx tsc` (strict, the page's tsconfig), then the server, sending the page's
// curl requests and checking each status against the `# 200` after it, or `npx vitest run` against
// Redis. The provider task runs its tests (the preset-token kit) before its dev server. The Express
// app runs on a fresh database of the PostgreSQL server at DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/test), the Redis suite on REDIS_URL (default
// redis://127.0.0.1:6379). Every block of the page must carry a marker, so nothing on it goes
// unchecked. Builds nothing: run `pnpm build` first. Prints each step's time; exits 1 on a failure.
//
//   node src/first-hour.mjs            keep nothing
//   node src/first-hour.mjs --keep     leave the scratch folder for a look (its path is printed)

import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { packAll, root, run, stepLog, userEnvironment } from './packed.mjs';
import { curlRequests, freePort, startServer } from './scratch-server.mjs';

const PAGE = 'docs/guides/first-hour.md';
const TASKS = ['express', 'koa', 'redis', 'provider'];
const keep = process.argv.includes('--keep');
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The page's marked blocks, by task and file. A marker names one or more `task/file`; a fenced block
 * without a marker is an error, so the page cannot hold code this script does not run.
 *
 * @param {string} text - the page
 * @returns {Map<string, Map<string, string>>}
 */
function pageFiles(text) {
  const tasks = new Map(TASKS.map((task) => [task, new Map()]));
  const fence = /^(?:<!-- first-hour: ([^>]+?) -->\n\n)?```\w*\n([\s\S]*?)^```$/gmu;
  for (const match of text.matchAll(fence)) {
    const line = text.slice(0, match.index).split('\n').length;
    if (match[1] === undefined) throw new Error(`${PAGE}:${line}: a code block without a marker`);
    for (const target of match[1].split(/\s+/u)) {
      const [task, ...path] = target.split('/');
      if (!tasks.has(task) || path.length === 0) {
        throw new Error(`${PAGE}:${line}: "${target}" is not task/file (tasks: ${TASKS})`);
      }
      tasks.get(task).set(path.join('/'), match[2]);
    }
  }
  for (const [task, files] of tasks) {
    for (const needed of ['install.sh', 'run.sh', 'tsconfig.json']) {
      if (!files.has(needed)) throw new Error(`${PAGE}: no block marked ${task}/${needed}`);
    }
  }
  return tasks;
}

/** The commands of a shell block: one a line, comments and blank lines left out. */
const commands = (block) =>
  block
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/u, '').trim())
    .filter((line) => line !== '');

const { results, timed } = stepLog();

/** Runs a task's project through the page: install, files, type-check, run. */
async function doTask(task, files, project, tarballs) {
  const env = {
    ...userEnvironment(),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'error',
  };
  const shell = (line, extra = {}) =>
    run('sh', ['-c', line], { cwd: project, env: { ...env, ...extra }, timeout: 300_000 });
  const started = performance.now();
  const label = (what) => `${task}: ${what}`;

  await mkdir(project, { recursive: true });
  const manifest = { name: `first-hour-${task}`, version: '0.0.0', private: true, type: 'module' };
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const installed = await timed(label('npm install (the page’s commands)'), async () => {
    for (const line of commands(files.get('install.sh'))) {
      await shell(line.replace(/@plantstore\/(\w+)/gu, (name, pkg) => tarballs[pkg] ?? name));
    }
    const lock = JSON.parse(await readFile(join(project, 'package-lock.json'), 'utf8'));
    const version = (name) => lock.packages[`node_modules/${name}`]?.version ?? '?';
    const shown = ['express', 'koa', '@koa/router', 'pg', 'redis', 'vitest', 'typescript', 'tsx'];
    return shown
      .filter((name) => version(name) !== '?')
      .map((name) => `${name} ${version(name)}`)
      .join(', ');
  });
  if (!installed) return;
  for (const [file, text] of files) {
    if (file.endsWith('.sh')) continue;
    await mkdir(dirname(join(project, file)), { recursive: true });
    await writeFile(join(project, file), text);
  }

  // What a step printed: vitest's count of passed tests, else nothing to say.
  const outcome = ({ stdout }) => /Tests\s+(\d+ passed[^\n]*)/u.exec(stdout)?.[1].trim() ?? 'clean';
  const steps = commands(files.get('run.sh'));
  for (const line of steps.slice(0, -1)) {
    if (!(await timed(label(line), () => shell(line, { NO_COLOR: '1' }).then(outcome)))) return;
  }
  const last = steps.at(-1);
  if (task === 'redis') {
    await timed(label(`${last} (Redis at ${redisUrl})`), async () =>
      outcome(await shell(last, { REDIS_URL: redisUrl, NO_COLOR: '1' })),
    );
  } else {
    await timed(label(`${last}, then the page's requests`), () =>
      serveAndRequest(task, last, files.get('requests.sh'), project, env),
    );
  }
  return performance.now() - started;
}

/** Starts the task's server (the Express one on a fresh database), sends the page's requests. */
async function serveAndRequest(task, line, requestsBlock, project, env) {
  if (requestsBlock === undefined) throw new Error(`${PAGE}: no block marked ${task}/requests.sh`);
  const port = await freePort();
  const extra = { PORT: String(port) };
  let database;
  if (task === 'express') {
    database = `first_hour_${process.pid}_${Date.now()}`;
    await adminQuery(project, `CREATE DATABASE ${database}`);
    const url = new URL(databaseUrl);
    url.pathname = `/${database}`;
    extra.DATABASE_URL = url.href;
  }
  const server = await startServer(line, { cwd: project, env: { ...env, ...extra } });
  try {
    const answers = [];
    for (const request of curlRequests(requestsBlock, port, server.token)) {
      const response = await fetch(request.url, { method: 'POST', ...request.init });
      const body = await response.text();
      if (response.status !== request.expected) {
        throw new Error(
          `${request.shown}: ${response.status} ${body}, ${request.expected} expected\n${server.output()}`,
        );
      }
      answers.push(response.status);
    }
    // The route logs a 5xx or a misplaced body parser as `plantstore: …`: the page's app has neither.
    if (/^plantstore: /mu.test(server.output())) {
      throw new Error(`the route logged a problem:\n${server.output()}`);
    }
    const stderr = server.stderr().trim();
    return `${answers.join(', ')}${stderr === '' ? '' : `; stderr: ${stderr}`}`;
  } finally {
    await server.stop();
    if (database !== undefined) await adminQuery(project, `DROP DATABASE ${database} WITH (FORCE)`);
  }
}

/** Runs one statement on DATABASE_URL's server with the `pg` the project installed. */
function adminQuery(project, sql) {
  const source = `import pg from 'pg';
const client = new pg.Client({ connectionString: process.env.ADMIN_URL });
await client.connect();
try { await client.query(process.env.SQL); } finally { await client.end(); }`;
  return run(process.execPath, ['--input-type=module', '-e', source], {
    cwd: project,
    env: { ...userEnvironment(), ADMIN_URL: databaseUrl, SQL: sql },
  });
}

async function main() {
  const started = performance.now();
  const tasks = pageFiles(await readFile(join(root, PAGE), 'utf8'));
  const scratch = await realpath(await mkdtemp(join(tmpdir(), 'plantstore-first-hour-')));
  if (!relative(root, scratch).startsWith('..')) {
    throw new Error(`The scratch folder ${scratch} is inside the workspace: set TMPDIR elsewhere.`);
  }
  const timings = [];
  try {
    const packs = join(scratch, 'tarballs');
    await mkdir(packs);
    const tarballs = {};
    const packed = await timed('pack (pnpm pack)', async () => {
      const { files } = await packAll(packs);
      for (const file of files) tarballs[/plantstore-(\w+)-\d/u.exec(file)[1]] = file;
      return Object.keys(tarballs).join(', ');
    });
    // One project after the other: each time is what a user waits for, not a share of two cores.
    for (const task of packed ? TASKS : []) {
      const ms = await doTask(task, tasks.get(task), join(scratch, task), tarballs);
      timings.push(`${task} ${ms === undefined ? 'failed' : `${(ms / 1000).toFixed(1)} s`}`);
    }
  } finally {
    if (keep) console.log(`Scratch projects kept in ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }

  console.log(`\n${PAGE}, done as a new user would, in scratch npm projects:\n`);
  for (const result of results) {
    const time = `${(result.ms / 1000).toFixed(1)} s`.padStart(7);
    const detail = result.ok && result.detail ? `: ${result.detail}` : '';
    console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${time}  ${result.name}${detail}`);
  }
  for (const result of results.filter((each) => !each.ok)) {
    console.log(`\n--- ${result.name}\n${result.error?.message ?? String(result.error)}`);
  }
  const total = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`\nPer project (install to last check): ${timings.join(', ')}; all in ${total} s.`);
  if (results.some((result) => !result.ok) || timings.some((each) => each.endsWith('failed'))) {
    process.exitCode = 1;
  }
}

await main();

#!/usr/bin/env node
// The README's quick start, run as a new user runs it. The commands are read from the README itself,
// so what CI runs and what the README tells people cannot drift apart.
//
//   node scripts/quick-start.mjs test-command   prints the README's test command (the fast tier)
//   node scripts/quick-start.mjs test-all-command   prints the README's command for every test (CI runs it)
//   node scripts/quick-start.mjs check          runs the start command on the embedded store, sends the
//                                               printed request (200, 200 again, 409 for another name),
//                                               stops it, starts it again, and reports both start times
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
// The first start installs the workspace: with an empty pnpm store on a shared 2-core machine that
// alone took more than 90 s (1,024 packages downloaded), so the bound is for a hang, not for speed.
const FIRST_START_LIMIT_MS = 300_000;

/** The two commands of the README's quick-start block, comments stripped. */
function readmeCommands() {
  const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
  const block = /## Quick start[\s\S]*?```sh\n([\s\S]*?)```/u.exec(readme)?.[1];
  const lines = (block ?? '')
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/u, '').trim())
    .filter(Boolean);
  if (lines.length !== 2) {
    throw new Error(
      `the README's quick start should hold exactly two commands, found ${lines.length}`,
    );
  }
  const [setupAndStart, test] = lines;
  const start = setupAndStart.split('&&').at(-1).trim();
  // The line after the block names the command that runs everything: the test command's `:all`.
  const after = readme.slice(readme.indexOf(block ?? '') + (block ?? '').length);
  const testAll = /`([^`]*test:all)`/u.exec(after)?.[1];
  if (testAll !== `${test}:all`) {
    throw new Error(`the line after the quick start should name \`${test}:all\`, found ${testAll}`);
  }
  return { setupAndStart, start, test, testAll };
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** Runs `command` in a shell of its own process group until it prints the example's curl line. */
async function startUntilReady(command, port) {
  const env = { ...process.env, PORT: String(port) };
  delete env.DATABASE_URL; // the quick start runs on the embedded store
  const started = performance.now();
  const child = spawn('bash', ['-c', command], { cwd: root, env, detached: true });
  let output = '';
  const ready = new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no curl line within ${FIRST_START_LIMIT_MS} ms:\n${output}`)),
      FIRST_START_LIMIT_MS,
    );
    const read = (chunk) => {
      output += chunk;
      const token = /authorization: Bearer ([\w.-]+)/u.exec(output)?.[1];
      if (token !== undefined) {
        clearTimeout(timer);
        done(token);
      }
    };
    child.stdout.setEncoding('utf8').on('data', read);
    child.stderr.setEncoding('utf8').on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`"${command}" exited (${code}) before printing its curl line:\n${output}`));
    });
  });
  const token = await ready;
  const stop = async () => {
    const exited = new Promise((done) => child.once('exit', done));
    process.kill(-child.pid, 'SIGINT');
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { token, ms: performance.now() - started, stop };
}

async function expectAnswer(port, token, name, status) {
  const response = await fetch(`http://127.0.0.1:${port}/api/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: `{"id": 9007199254740993, "name": ${JSON.stringify(name)}, "tag": "aroid"}`,
  });
  const body = await response.text();
  if (response.status !== status) {
    throw new Error(`${name}: expected ${status}, got ${response.status} ${body}`);
  }
  console.log(`  POST ${name} → ${response.status} ${body}`);
}

async function check() {
  const { setupAndStart, start } = readmeCommands();
  const port = await freePort();
  console.log(`$ ${setupAndStart}`);
  const first = await startUntilReady(setupAndStart, port);
  console.log(`  curl line after ${(first.ms / 1000).toFixed(1)} s (install and first start)`);
  try {
    await expectAnswer(port, first.token, 'Monstera', 200);
    await expectAnswer(port, first.token, 'Monstera', 200);
    await expectAnswer(port, first.token, 'Not a Monstera', 409);
  } finally {
    await first.stop();
  }
  console.log(`$ ${start}`);
  const second = await startUntilReady(start, port);
  console.log(`  curl line after ${(second.ms / 1000).toFixed(1)} s (a restart, nothing changed)`);
  try {
    // The plant written before the restart is still there: the embedded store is durable.
    await expectAnswer(port, second.token, 'Not a Monstera', 409);
  } finally {
    await second.stop();
  }
}

const [mode] = process.argv.slice(2);
if (mode === 'test-command') {
  console.log(readmeCommands().test);
} else if (mode === 'test-all-command') {
  console.log(readmeCommands().testAll);
} else if (mode === 'check') {
  await check();
} else {
  console.error('usage: node scripts/quick-start.mjs check | test-command | test-all-command');
  process.exit(2);
}

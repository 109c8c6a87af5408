// The server side of first-hour.mjs: a free port, a page's server started and stopped as a user's
// shell would run it, and the page's curl commands read as requests.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port of 127.0.0.1 nothing listens on now. */
export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `line` in a shell of its own process group, and waits until it prints `listening on`. What
 * it printed before, `TOKEN=…` included, is kept.
 *
 * @param {string} line - the page's command
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, timeout?: number }} options
 * @returns {Promise<{ token: string, stderr: () => string, output: () => string, stop: () => Promise<void> }>}
 */
export async function startServer(line, { cwd, env, timeout = 120_000 }) {
  const child = spawn('sh', ['-c', line], { cwd, env, detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = once(child, 'exit');
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`.trimEnd();
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + timeout;
  while (!/listening on/u.test(stdout)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${line} did not print "listening on" (exit ${child.exitCode})\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const token = /^TOKEN=(\S+)$/mu.exec(stdout)?.[1];
  if (token === undefined) {
    await stop();
    throw new Error(`${line} printed no TOKEN= line\n${output()}`);
  }
  return { token, stderr: () => stderr, output, stop };
}

/**
 * The curl commands of a shell block as fetch requests: the URL (its port replaced), `-H` headers
 * (`$TOKEN` replaced), `-d` body, and the status in the `# 200` comment at the end.
 *
 * @param {string} block - the page's block
 * @param {number} port - where the server listens
 * @param {string} token - the token it printed
 */
export function curlRequests(block, port, token) {
  const lines = block.replace(/\\\n\s*/gu, ' ').split('\n');
  const quoted = /(-H|-d) (?:'([^']*)'|"([^"]*)")/gu;
  const requests = [];
  for (const line of lines.filter((each) => each.startsWith('curl '))) {
    const expected = Number(/#\s*(\d{3})\b[^'"]*$/u.exec(line)?.[1]);
    const url = /http:\/\/\S+/u.exec(line)?.[0];
    if (!Number.isInteger(expected) || url === undefined) {
      throw new Error(`a curl line without a URL or a "# <status>" comment: ${line}`);
    }
    const headers = {};
    let body;
    for (const [, flag, single, double] of line.matchAll(quoted)) {
      const value = (single ?? double.replaceAll('$TOKEN', token)).trim();
      if (flag === '-d') body = value;
      else
        headers[value.slice(0, value.indexOf(':')).trim()] = value
          .slice(value.indexOf(':') + 1)
          .trim();
    }
    requests.push({
      url: url.replace(/:\d+\//u, `:${port}/`),
      init: { headers, body },
      expected,
      shown: line.length > 100 ? `${line.slice(0, 97)}...` : line,
    });
  }
  if (requests.length === 0) throw new Error('no curl command in the requests block');
  return requests;
}

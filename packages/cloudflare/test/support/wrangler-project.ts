import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));
const WRANGLER = here('../../node_modules/.bin/wrangler');
const PAGE = here('../../../../docs/hosts/cloudflare-workers.md');
const PACKAGES = { core: here('../../../core'), cloudflare: here('../..') };
const run = promisify(execFile);

/** What the test takes from docs/hosts/cloudflare-workers.md: its files and its local shell commands. */
export interface PageFiles {
  /** The block that starts `// src/worker.ts`. */
  readonly worker: string;
  /** The page's one `toml` block. */
  readonly wranglerToml: string;
  /** The migration block's commands, with `npx wrangler` in them. */
  readonly migration: readonly string[];
}

/**
 * Reads the page's blocks: the test runs exactly what a reader copies.
 *
 * @param markdown - docs/hosts/cloudflare-workers.md
 * @returns the Worker, its wrangler.toml and the local migration's commands
 */
export function pageFiles(markdown: string): PageFiles {
  const blocks = [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gmu)].map(([, lang, code]) => ({
    lang,
    code: code ?? '',
  }));
  const worker = blocks.find((b) => b.lang === 'ts' && b.code.startsWith('// src/worker.ts\n'));
  const tomls = blocks.filter((b) => b.lang === 'toml');
  const migration = blocks.find((b) => b.lang === 'sh' && b.code.includes('--local'));
  if (worker === undefined || tomls.length !== 1 || migration === undefined) {
    throw new Error(
      'docs/hosts/cloudflare-workers.md: no src/worker.ts block, one toml block, a --local block',
    );
  }
  const commands = migration.code
    .split('\n')
    .map((line) => line.replace(/\s#.*$/u, '').trim())
    .filter((line) => line !== '');
  return { worker: worker.code, wranglerToml: tomls[0]!.code, migration: commands };
}

/** A running `wrangler dev`. */
export interface DevServer {
  readonly origin: string;
  output(): string;
  stop(): Promise<void>;
}

/** The page's Worker as a user's project on disk, run with the wrangler the package pins. */
export interface WranglerProject {
  readonly directory: string;
  /** Runs `wrangler <args>` to its end; rejects on a non-zero exit, with what it printed. */
  wrangler(...args: string[]): Promise<string>;
  /** Runs `wrangler dev` on 127.0.0.1 and a port of its choosing, until it is ready. */
  dev(): Promise<DevServer>;
  remove(): Promise<void>;
}

/**
 * The environment wrangler runs in: offline and logged out. A HOME of its own holds no stored
 * login; the API and login URLs point at a closed local port, so a command that wanted an account
 * fails at once instead of reaching Cloudflare; no metrics, no error reports, no banner (it asks
 * npm for a newer wrangler), no `Request.cf` download (miniflare's, from workers.cloudflare.com).
 */
function offline(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(?:CLOUDFLARE_|CF_|WRANGLER_)/u.test(name)) env[name] = value;
  }
  const closed = 'http://127.0.0.1:9';
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    CI: 'true',
    NO_COLOR: '1',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    CLOUDFLARE_API_BASE_URL: `${closed}/client/v4`,
    WRANGLER_AUTH_URL: `${closed}/oauth2/auth`,
    WRANGLER_TOKEN_URL: `${closed}/oauth2/token`,
  };
}

/**
 * Writes the page's Worker project into a new temporary folder, with the built packages installed
 * in it as npm would (`node_modules/@plantstore/*`, their `dist`), and `.dev.vars` over `[vars]`.
 *
 * @param devVars - the local values, `JWKS_URI` and the rest
 * @returns the project
 */
export async function wranglerProject(
  devVars: Readonly<Record<string, string>>,
): Promise<WranglerProject> {
  const files = pageFiles(await readFile(PAGE, 'utf8'));
  const directory = await mkdtemp(join(tmpdir(), 'plantstore-wrangler-'));
  await mkdir(join(directory, 'src'));
  await mkdir(join(directory, 'node_modules', '@plantstore'), { recursive: true });
  for (const [name, path] of Object.entries(PACKAGES)) {
    await symlink(path, join(directory, 'node_modules', '@plantstore', name), 'dir');
  }
  await writeFile(join(directory, 'src', 'worker.ts'), files.worker);
  await writeFile(join(directory, 'wrangler.toml'), files.wranglerToml);
  const vars = Object.entries(devVars).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
  await writeFile(join(directory, '.dev.vars'), `${vars.join('\n')}\n`);
  const env = offline(directory);
  const wrangler = async (...args: string[]) => {
    const { stdout, stderr } = await run(WRANGLER, args, { cwd: directory, env, timeout: 170_000 });
    return `${stdout}${stderr}`;
  };
  for (const line of files.migration) {
    if (line.startsWith('npx wrangler ')) await wrangler(...line.slice(13).split(/\s+/u));
    else await run('sh', ['-c', line], { cwd: directory, env });
  }
  return {
    directory,
    wrangler,
    dev: () => startDev(directory, env),
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

async function startDev(directory: string, env: NodeJS.ProcessEnv): Promise<DevServer> {
  const args = ['dev', '--ip', '127.0.0.1', '--port', '0', '--inspector-port', '0'];
  // A process group of its own: stopping it stops workerd too.
  const child: ChildProcess = spawn(WRANGLER, args, { cwd: directory, env, detached: true });
  let output = '';
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`wrangler dev did not start:\n${output}`)),
      170_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /Ready on (http:\/\/127\.0\.0\.1:\d+)/u.exec(output)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`wrangler dev exited (${code}):\n${output}`));
    });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  };
  try {
    return { origin: await ready, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

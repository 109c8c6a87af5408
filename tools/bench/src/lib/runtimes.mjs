// The Bun and Deno binaries the setups run on: those the `bun` and `deno` npm packages deliver in
// their platform package (@oven/bun-linux-x64, @deno/linux-x64-glibc, …), found as the tests find
// them (docs/hosts/bun-deno-hono.md), without the wrappers' install scripts. PLANTSTORE_BUN or PLANTSTORE_DENO
// names another binary.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import process from 'node:process';

const INSIDE = { bun: 'bin/bun', deno: 'deno' };
/** How each runtime runs a server file: Deno with the permissions a server needs, no more. */
const ARGS = {
  bun: (file) => [file],
  deno: (file) => ['run', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', file],
};
const found = new Map();

/**
 * The runtime's binary and version, or why it cannot run here.
 *
 * @param {'bun' | 'deno'} name
 * @returns {{ path: string, version: string, args: (file: string) => string[] } | string}
 */
export function runtime(name) {
  if (!found.has(name)) found.set(name, locate(name));
  return found.get(name);
}

function locate(name) {
  const override = process.env[`PLANTSTORE_${name.toUpperCase()}`];
  const candidates = override ? [override] : installed(name);
  if (typeof candidates === 'string') return candidates;
  for (const path of candidates) {
    const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    const version = /\d+\.\d+\.\d+\S*/u.exec(probe.stdout ?? '')?.[0];
    if (probe.status === 0 && version !== undefined) return { path, version, args: ARGS[name] };
  }
  return `no ${name} binary that runs on ${process.platform}-${process.arch} (pnpm install)`;
}

function installed(name) {
  const require = createRequire(import.meta.url);
  let wrapper;
  try {
    wrapper = require.resolve(`${name}/package.json`);
  } catch {
    return `the ${name} npm package is not installed (pnpm install)`;
  }
  const fromWrapper = createRequire(wrapper);
  const { optionalDependencies = {} } = JSON.parse(readFileSync(wrapper, 'utf8'));
  const paths = [];
  for (const platformPackage of Object.keys(optionalDependencies)) {
    try {
      const binary = join(
        dirname(fromWrapper.resolve(`${platformPackage}/package.json`)),
        INSIDE[name],
      );
      if (existsSync(binary)) paths.push(binary);
    } catch {
      // another platform's package: not installed, as it should be
    }
  }
  return paths;
}

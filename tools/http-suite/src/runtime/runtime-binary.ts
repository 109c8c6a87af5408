import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The runtimes whose npm packages carry their binary. */
export type RuntimeName = 'bun' | 'deno';

/** A runtime binary that ran `--version` on this machine. */
export interface RuntimeBinary {
  readonly name: RuntimeName;
  readonly path: string;
  /** As the binary reports it, such as `1.4.5` or `2.9.6`. */
  readonly version: string;
}

/** Where the binary sits inside each runtime's platform package (`@oven/bun-linux-x64`, `@deno/linux-x64-glibc`, …). */
const BINARY_IN_PACKAGE: Record<RuntimeName, string> = { bun: 'bin/bun', deno: 'deno' };

interface Manifest {
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly os?: readonly string[];
  readonly cpu?: readonly string[];
}

const found = new Map<RuntimeName, RuntimeBinary | string>();

/**
 * Finds the runtime's binary without its install script: the `bun` and `deno` npm packages deliver it
 * in an optional dependency for this platform, which pnpm installs with no script at all (their own
 * postinstall only copies that file into place). `PLANTSTORE_BUN` or `PLANTSTORE_DENO` names another
 * binary to test instead. The binary must then answer `--version`.
 *
 * @param name - the runtime
 * @param from - a file of the package that depends on the runtime's npm package (`import.meta.url`)
 * @returns the binary, or why none can run here
 */
export function findRuntime(name: RuntimeName, from: string | URL): RuntimeBinary | string {
  const known = found.get(name);
  if (known !== undefined) return known;
  const override = process.env[`PLANTSTORE_${name.toUpperCase()}`];
  const candidates = override ? [override] : installedBinaries(name, from);
  let result: RuntimeBinary | string =
    typeof candidates === 'string'
      ? candidates
      : `no ${name} platform package for ${process.platform}-${process.arch} is installed (pnpm install)`;
  if (typeof candidates !== 'string') {
    for (const path of candidates) {
      const probe = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
      const version = /\d+\.\d+\.\d+\S*/u.exec(probe.stdout ?? '')?.[0];
      if (probe.status === 0 && version !== undefined) {
        result = { name, path, version };
        break;
      }
      // A CPU without AVX2, say, kills Bun with SIGILL: the reason is worth printing as it is.
      const why = probe.error?.message ?? probe.signal ?? probe.stderr.trim().split('\n')[0];
      result = `${path} --version failed: ${why || `exit code ${probe.status}`}`;
    }
  }
  found.set(name, result);
  return result;
}

function installedBinaries(name: RuntimeName, from: string | URL): string[] | string {
  const require = createRequire(from);
  let wrapper: string;
  try {
    wrapper = require.resolve(`${name}/package.json`);
  } catch {
    return `the ${name} npm package is not installed here (pnpm install)`;
  }
  const fromWrapper = createRequire(wrapper);
  const { optionalDependencies = {} } = readManifest(wrapper);
  const binaries: string[] = [];
  for (const platformPackage of Object.keys(optionalDependencies)) {
    let manifestPath: string;
    try {
      manifestPath = fromWrapper.resolve(`${platformPackage}/package.json`);
    } catch {
      continue; // another platform's package: not installed, as it should be
    }
    const { os, cpu } = readManifest(manifestPath);
    if (os !== undefined && !os.includes(process.platform)) continue;
    if (cpu !== undefined && !cpu.includes(process.arch)) continue;
    const suffix = process.platform === 'win32' ? '.exe' : '';
    const binary = join(dirname(manifestPath), `${BINARY_IN_PACKAGE[name]}${suffix}`);
    if (existsSync(binary)) binaries.push(binary);
  }
  return binaries;
}

function readManifest(path: string): Manifest {
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/**
 * The runtime's binary for a test file, or `undefined` to skip its suites: the reason is printed, or,
 * under `PLANTSTORE_REQUIRE_SERVICES=1` (as in CI), a failing test is registered instead, so a
 * runtime that cannot run never passes as a skip (the rule of `serviceUrl` in the testing kit).
 *
 * @param runner - `{ it }` of vitest
 * @param name - the runtime
 * @param suite - the suite's name, for the messages
 * @param from - a file of the package that depends on the runtime's npm package (`import.meta.url`)
 * @returns the binary, or `undefined` when the suites should be skipped
 * @example
 * ```ts
 * const bun = requireRuntime({ it }, 'bun', 'the Bun example', import.meta.url);
 * describe.skipIf(bun === undefined)('the Bun example', () => { ... });
 * ```
 */
export function requireRuntime(
  runner: { readonly it: (name: string, body: () => void) => unknown },
  name: RuntimeName,
  suite: string,
  from: string | URL,
): RuntimeBinary | undefined {
  const binary = findRuntime(name, from);
  if (typeof binary !== 'string') return binary;
  if (process.env['PLANTSTORE_REQUIRE_SERVICES'] === '1') {
    runner.it(
      `has a ${name} that runs here, as PLANTSTORE_REQUIRE_SERVICES=1 requires for ${suite}`,
      () => {
        throw new Error(`${binary}, and PLANTSTORE_REQUIRE_SERVICES=1 forbids skipping.`);
      },
    );
  } else {
    console.warn(`Skipping ${suite}: ${binary}.`);
  }
  return undefined;
}

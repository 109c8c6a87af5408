// What a Worker weighs, as a user deploys it: each Worker of test/workers bundled from the BUILT
// packages (run `pnpm build` first) by esbuild `--minify` and by `wrangler deploy --dry-run
// --minify`, beside the same route written with Hono where Hono has an equivalent. Prints the
// table docs/hosts/bun-deno-hono.md quotes, and exits 1 when a Worker's gzip size passes its budget.
//
//   node tools/bundle-sizes/bundle-sizes.mjs            # the table and the budgets (CI)
//   node tools/bundle-sizes/bundle-sizes.mjs --analyze  # and what each module weighs
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { analyzeMetafile, build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
// The Workers are the Cloudflare package's test Workers; what they import is linked from this
// tool's own dependencies.
const PACKAGE = here('.');
const WORKERS = here('../../packages/cloudflare/test/workers');
const WRANGLER = here('node_modules/.bin/wrangler');
const run = promisify(execFile);

/**
 * The Workers weighed, each with its budget: the gzip size, in KiB, that its minified bundle may not
 * pass, by esbuild and by wrangler (whose bundle keeps function names, so it weighs more). Each
 * budget is the size measured when it was set (docs/hosts/bun-deno-hono.md) and about 1 KiB, so that a change
 * that adds weight to a route which does not use it fails here and is looked at. Issue 40's goal
 * for the minimal Worker is 20 KiB gzip; `goalKiB` prints it beside the budget until it is reached.
 */
const WORKER_BUDGETS = [
  {
    name: 'minimal (HS256 secret)',
    file: 'secret-worker.ts',
    hono: 'hono-secret-worker.ts',
    budgetKiB: { esbuild: 38, wrangler: 41.5 },
    goalKiB: 20,
  },
  {
    name: 'JWKS',
    file: 'jwks-worker.ts',
    hono: 'hono-jwks-worker.ts',
    budgetKiB: { esbuild: 38, wrangler: 41.5 },
  },
  {
    name: 'JWKS + DPoP',
    file: 'dpop-worker.ts',
    hono: undefined,
    budgetKiB: { esbuild: 41, wrangler: 45 },
  },
];
// What the copied Workers import, linked into the project as npm would install them: the core
// through its package.json `exports` (dist), never the TypeScript sources this package's tsconfig
// maps it to.
const DEPENDENCIES = ['@plantstore/core', 'hono', '@hono/valibot-validator', 'valibot'];

const kib = (bytes) => bytes / 1024;

/** A folder holding the Workers and their dependencies, outside every tsconfig of the repository. */
async function project() {
  const directory = await mkdtemp(join(tmpdir(), 'plantstore-bundle-sizes-'));
  await mkdir(join(directory, 'src'));
  await mkdir(join(directory, 'node_modules', '@plantstore'), { recursive: true });
  await mkdir(join(directory, 'node_modules', '@hono'), { recursive: true });
  for (const name of DEPENDENCIES) {
    await symlink(
      join(PACKAGE, 'node_modules', name),
      join(directory, 'node_modules', name),
      'dir',
    );
  }
  const files = WORKER_BUDGETS.flatMap(({ file, hono }) => (hono ? [file, hono] : [file]));
  for (const file of [...files, 'hono-route.ts', 'lazy-worker.ts']) {
    await copyFile(join(WORKERS, file), join(directory, 'src', file));
  }
  return directory;
}

/** esbuild `--minify --format=esm --platform=neutral`, with the Workers' conditions. */
async function esbuildSize(directory, file, analyze) {
  const result = await build({
    entryPoints: [join(directory, 'src', file)],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    minify: true,
    metafile: analyze,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (analyze) console.log(`\n${file}:${await analyzeMetafile(result.metafile)}`);
  return { minified: kib(output.contents.length), gzip: kib(gzipSync(output.contents).length) };
}

/** `wrangler deploy --dry-run --minify`: offline, logged out, nothing sent anywhere. */
async function wranglerSize(directory, file) {
  const toml = `name = "size"\nmain = "src/${file}"\ncompatibility_date = "2026-11-01"\n`;
  await writeFile(join(directory, 'wrangler.toml'), toml);
  const closed = 'http://127.0.0.1:9';
  const env = {
    PATH: process.env.PATH,
    HOME: directory,
    XDG_CONFIG_HOME: join(directory, '.config'),
    CI: 'true',
    NO_COLOR: '1',
    WRANGLER_SEND_METRICS: 'false',
    WRANGLER_SEND_ERROR_REPORTS: 'false',
    WRANGLER_HIDE_BANNER: 'true',
    CLOUDFLARE_API_BASE_URL: `${closed}/client/v4`,
  };
  const args = ['deploy', '--dry-run', '--minify', '--outdir', 'dist'];
  const { stdout, stderr } = await run(WRANGLER, args, { cwd: directory, env, timeout: 170_000 });
  const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/u.exec(`${stdout}${stderr}`);
  if (match === null) throw new Error(`wrangler printed no sizes for ${file}:\n${stdout}${stderr}`);
  return { minified: Number(match[1]), gzip: Number(match[2]) };
}

async function sizesOf(directory, file, analyze) {
  if (file === undefined) return undefined;
  return {
    esbuild: await esbuildSize(directory, file, analyze),
    wrangler: await wranglerSize(directory, file),
  };
}

const cell = (size) =>
  size === undefined ? '—' : `${size.minified.toFixed(1)} / ${size.gzip.toFixed(1)}`;

async function main() {
  const analyze = process.argv.includes('--analyze');
  const directory = await project();
  const rows = [];
  const over = [];
  try {
    for (const worker of WORKER_BUDGETS) {
      const ours = await sizesOf(directory, worker.file, analyze);
      const hono = await sizesOf(directory, worker.hono, false);
      const { esbuild, wrangler } = worker.budgetKiB;
      rows.push([
        worker.name,
        cell(ours.esbuild),
        cell(ours.wrangler),
        `${esbuild} / ${wrangler}${worker.goalKiB === undefined ? '' : ` (goal ${worker.goalKiB})`}`,
        cell(hono?.esbuild),
        cell(hono?.wrangler),
      ]);
      for (const [tool, size] of Object.entries(ours)) {
        const budget = worker.budgetKiB[tool];
        if (size.gzip > budget) {
          over.push(`${worker.name}, ${tool}: gzip ${size.gzip.toFixed(1)} KiB > ${budget} KiB`);
        }
      }
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  const header = [
    'Worker',
    'esbuild --minify (KiB / gzip)',
    'wrangler --minify (KiB / gzip)',
    'budget, gzip KiB (esbuild / wrangler)',
    'Hono, esbuild',
    'Hono, wrangler',
  ];
  console.log(
    [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n'),
  );
  if (over.length > 0) {
    console.error(`Over budget:\n${over.join('\n')}`);
    process.exitCode = 1;
  }
}

await main();

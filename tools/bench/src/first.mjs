// `pnpm --filter @plantstore/bench first`: only the first-request part of `pnpm bench`, each setup
// of FIRST_REQUEST_SETUPS (or those of BENCH_ONLY) and its `+warm-up` variant on fresh servers,
// BENCH_FIRST_RUNS times (default 15). It prints the figures and writes no page.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { firstConsoleLines } from './lib/first-report.mjs';
import { FIRST_REQUEST_SETUPS, firstRequests } from './lib/first-requests.mjs';
import { SETUPS } from './setups.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const raw = process.env.BENCH_FIRST_RUNS;
const runs = raw === undefined || raw === '' ? 15 : Number(raw);
if (!Number.isInteger(runs) || runs < 1)
  throw new TypeError(`BENCH_FIRST_RUNS must be a whole number ≥ 1; got ${raw}`);
const only = process.env.BENCH_ONLY?.split(',').filter(Boolean) ?? FIRST_REQUEST_SETUPS;

for (const name of ['core', 'express', 'koa', 'fastify']) {
  if (!existsSync(join(ROOT, 'packages', name, 'dist', 'index.js')))
    throw new Error(`packages/${name} is not built: run \`pnpm build\` first.`);
}
const setups = SETUPS.filter((s) => only.includes(s.id));
console.log(`First requests: ${runs} fresh servers each of ${setups.map((s) => s.id).join(', ')}…`);
const started = Date.now();
for (const line of firstConsoleLines(await firstRequests(setups, runs))) console.log(line);
console.log(`${Math.round((Date.now() - started) / 1000)} s.`);

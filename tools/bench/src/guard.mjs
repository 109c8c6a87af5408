// `pnpm --filter @plantstore/bench guard`: a guarded GET with a cached token (issue #46), ours
// against the middleware users run today, in one run: Express 5 with `guard` against
// express-oauth2-jwt-bearer's `auth()`, Fastify 5 with the `guard` hook against @fastify/jwt's
// `request.jwtVerify()`. Each server in its own process; rounds interleaved; requests per second
// and the server's CPU time per request. `--write` (or GUARD_WRITE=1) puts the figures in
// docs/reference/performance.md. Settings: GUARD_ROUNDS, GUARD_SECONDS, GUARD_CONNECTIONS.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { signToken } from './config.mjs';
import { withKeptSection } from './lib/kept-section.mjs';
import { cpuMicros, startServer } from './lib/processes.mjs';
import { machineLine, runDate } from './lib/run-info.mjs';
import { format, median } from './lib/stats.mjs';
import { table } from './lib/table.mjs';
import { wholeSetting } from './lib/setting.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const ROUNDS = wholeSetting('GUARD_ROUNDS', 5);
const SECONDS = wholeSetting('GUARD_SECONDS', 3);
const CONNECTIONS = wholeSetting('GUARD_CONNECTIONS', 50);
const WRITE = process.argv.includes('--write') || process.env.GUARD_WRITE === '1';

const PAIRS = [
  {
    name: 'Express 5',
    ours: 'express5-guard',
    base: 'express5-oauth2',
    against: "express-oauth2-jwt-bearer's `auth()`",
  },
  {
    name: 'Fastify 5',
    ours: 'fastify-guard',
    base: 'fastify-jwt-guard',
    against: "@fastify/jwt's `request.jwtVerify()`",
  },
];
const ids = PAIRS.flatMap((pair) => [pair.ours, pair.base]);
const token = await signToken();
const servers = [];
for (const id of ids) servers.push(await startServer({ id }));

async function round(server, seconds) {
  const before = cpuMicros(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ method: 'GET', path: '/things', headers: { authorization: `Bearer ${token}` } }],
  });
  const answered = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${server.id}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  }
  return {
    perSecond: answered / result.duration,
    cpu: (cpuMicros(server.pid) - before) / answered,
  };
}

const started = performance.now();
const results = new Map(ids.map((id) => [id, []]));
try {
  // The same answer from both sides of each pair, before anything is measured.
  for (const server of servers) {
    const response = await fetch(`${server.url}/things`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.text();
    if (response.status !== 200 || body !== '{"subject":"bench-client"}') {
      throw new Error(`${server.id} answered ${response.status} ${body}`);
    }
  }
  for (const server of servers) await round(server, 2);
  for (let r = 1; r <= ROUNDS; r += 1) {
    const order = r % 2 === 1 ? servers : [...servers].reverse();
    const line = [];
    for (const server of order) {
      await sleep(200);
      const result = await round(server, SECONDS);
      results.get(server.id).push(result);
      line.push(`${server.id} ${Math.round(result.perSecond)}/s ${result.cpu.toFixed(0)}µs`);
    }
    console.log(`round ${r}/${ROUNDS}: ${line.join(', ')}`);
  }
} finally {
  await Promise.all(servers.map((server) => server.stop()));
}

// Per round: ours over theirs by requests per second, theirs over ours by CPU per request (> 1: ours better).
const range = (values) => `${format(Math.min(...values), 2)}–${format(Math.max(...values), 2)}`;
const rows = PAIRS.map((pair) => {
  const ours = results.get(pair.ours);
  const base = results.get(pair.base);
  const rps = ours.map((o, i) => o.perSecond / base[i].perSecond);
  const cpu = ours.map((o, i) => base[i].cpu / o.cpu);
  return [
    `${pair.name}: \`guard\` vs ${pair.against}`,
    format(median(ours.map((o) => o.perSecond))),
    format(median(base.map((b) => b.perSecond))),
    `${format(median(rps), 2)}× (${range(rps)})`,
    `${format(median(ours.map((o) => o.cpu)), 1)} vs ${format(median(base.map((b) => b.cpu)), 1)}`,
    `${format(median(cpu), 2)}× (${range(cpu)})`,
  ];
});
const figures = table(
  [
    'guarded GET, cached token',
    'ours req/s',
    'theirs req/s',
    'req/s ratio (rounds)',
    'CPU µs/req ours vs theirs',
    'CPU ratio (rounds)',
  ],
  rows,
  ['l', 'r', 'r', 'r', 'r', 'r'],
);
const date = runDate();
const machine = machineLine();
const seconds = (performance.now() - started) / 1000;
console.log(
  `\n${figures}\n\n${ROUNDS} rounds × ${SECONDS} s, ${machine}, ${Math.round(seconds)} s.`,
);

if (WRITE) {
  const page = join(ROOT, 'docs', 'reference', 'performance.md');
  const section = [
    '## Guards',
    '',
    `_Written by \`pnpm --filter @plantstore/bench guard --write\` on ${date} (${machine} at the end). \`pnpm bench\` keeps this section as it is._`,
    '',
    'A guarded `GET /things` answering `{"subject":…}` with a cached HS256 token (issue #46, goal ≥ 1.0× on both',
    `measures): each server in its own process, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s after`,
    "a warm-up. The ratios are per round, ours over theirs by requests per second, theirs over ours by the server's",
    'CPU time (user + system) per request; above 1.0× ours is ahead; the median and the range of the rounds.',
    '',
    figures,
  ].join('\n');
  writeFileSync(page, withKeptSection(readFileSync(page, 'utf8'), section, 'guard'));
  console.log(`Wrote the "Guards" section of ${page}.`);
}

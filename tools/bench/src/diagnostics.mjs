// `pnpm --filter @plantstore/bench diagnostics`: what the plantstore:create TracingChannel costs a
// request. `service.handle` runs on in-memory requests (no HTTP, no sockets) in one process, in
// interleaved rounds, on two builds of the core's current sources: as they are, and with the
// diagnostics module replaced by a pass-through (the feature removed). `--write` (or
// DIAG_WRITE=1) puts the figures in docs/reference/performance.md. Settings: DIAG_ROUNDS, DIAG_REQUESTS.
import { tracingChannel } from 'node:diagnostics_channel';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { AUDIENCE, ISSUER, SECRET, signToken } from './config.mjs';
import { withKeptSection } from './lib/kept-section.mjs';
import { table } from './lib/table.mjs';
import { machineLine, runDate } from './lib/run-info.mjs';
import { format, median, spread } from './lib/stats.mjs';
import { wholeSetting } from './lib/setting.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CHANNEL = 'plantstore:create';

// Each round's requests are run in this many turns per build.
const BATCHES = 20;
const ROUNDS = wholeSetting('DIAG_ROUNDS', 31);
const REQUESTS = Math.ceil(wholeSetting('DIAG_REQUESTS', 2_000) / BATCHES) * BATCHES;
const WRAPPER_CALLS = REQUESTS * 100;
const WRITE = process.argv.includes('--write') || process.env.DIAG_WRITE === '1';

// The feature removed: the service's handler is exposed as it is and is never given a trace.
const PASS_THROUGH = `export const CREATE_TRACING_CHANNEL = ${JSON.stringify(CHANNEL)};
export const traceCreate = (handler) => handler;`;

// The idle build publishes on a channel of its own, which nobody subscribes to: the subscriber stays
// on `plantstore:create` for the whole run (subscribing and unsubscribing swaps the channel's class
// and throws away optimised code, which a real application does once, not between requests).
const IDLE_CHANNEL = 'plantstore-bench:nobody-listens';

/** esbuild plugins per build: the pass-through for `without`, another channel name for `idle`. */
function pluginsFor(kind) {
  if (kind === 'without') {
    return [
      {
        name: 'without-diagnostics',
        setup(esbuild) {
          esbuild.onResolve({ filter: /(^|\/)diagnostics(\.ts)?$/ }, () => ({
            path: 'diagnostics',
            namespace: 'pass-through',
          }));
          esbuild.onLoad({ filter: /.*/, namespace: 'pass-through' }, () => ({
            contents: PASS_THROUGH,
            loader: 'js',
          }));
        },
      },
    ];
  }
  if (kind === 'idle') {
    return [
      {
        name: 'idle-channel',
        setup(esbuild) {
          esbuild.onLoad({ filter: /service[/\\]diagnostics\.ts$/ }, ({ path }) => ({
            contents: readFileSync(path, 'utf8').replace(`'${CHANNEL}'`, `'${IDLE_CHANNEL}'`),
            loader: 'ts',
          }));
        },
      },
    ];
  }
  return [];
}

/**
 * Bundles `entry` of the core (jose and valibot inside) into `dir`, as the build `kind`:
 * `without` the diagnostics module, `idle` or `subscribed`.
 */
async function bundle(dir, entry, kind) {
  const outfile = join(dir, `${entry.replace(/\W/g, '-')}-${kind}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'packages', 'core', 'src', entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    plugins: pluginsFor(kind),
  });
  const text = readFileSync(outfile, 'utf8');
  const channel = kind === 'without' ? undefined : kind === 'idle' ? IDLE_CHANNEL : CHANNEL;
  if (text.includes('tracingChannel(') !== (channel !== undefined)) {
    throw new Error(`${outfile}: the diagnostics module is ${channel ? 'missing' : 'still in'}`);
  }
  if (channel !== undefined && !text.includes(`"${channel}"`) && !text.includes(`'${channel}'`)) {
    throw new Error(`${outfile}: does not publish on ${channel}`);
  }
  return import(pathToFileURL(outfile).href);
}

/** A subscriber that does the least a real one does: reads each event's message. */
function subscriber() {
  const seen = { events: 0 };
  const count = (message) => {
    if (message.method !== undefined) seen.events += 1;
  };
  return {
    seen,
    handlers: { start: count, end: count, asyncStart: count, asyncEnd: count, error: count },
  };
}

/** The CPU time (user + system, all threads) `run` takes, in ns. */
async function cpuOf(run) {
  const started = process.cpuUsage();
  await run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) * 1000;
}

/** The scenarios: each builds a fresh `run` per round for a variant's build of the core. */
async function scenarios() {
  const token = await signToken();
  const authorized = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const anonymous = { 'content-type': 'application/json' };
  const bodies = Array.from(
    { length: REQUESTS },
    (_, i) => `{"id": ${i + 1}, "name": "Monstera", "tag": "aroid"}`,
  );
  /** `service.handle` on `REQUESTS` requests one after the other, a fresh service and store. */
  const handling = (headers, status) => async (build) => {
    const { createPlantService, jwtBearer, memoryStore } = build.core;
    const service = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE }),
    });
    const request = (body) => ({ method: 'POST', path: '/plants', headers, body });
    // The first request verifies the token (the cache then holds it) and checks the answer.
    const first = await service.handle(request('{"id": 0, "name": "Warm-up"}'));
    if (first.status !== status) throw new Error(`answered ${first.status}, expected ${status}`);
    let next = 0;
    return async (count) => {
      for (const end = next + count; next < end; next += 1)
        await service.handle(request(bodies[next]));
    };
  };
  /** The diagnostics wrapper alone, around a handler that answers at once. */
  const answer = { status: 200, headers: {}, body: '{"name":"Monstera"}' };
  const request = { method: 'POST', path: '/plants', headers: {}, body: '' };
  const wrapper = async (build) => {
    const handler = async () => answer;
    const handle = build.traceCreate(handler);
    return async (count) => {
      for (let i = 0; i < count; i += 1) await handle(request);
    };
  };
  return [
    { name: 'create, 200', calls: REQUESTS, prepare: handling(authorized, 200), events: 4 },
    { name: 'no token, 401', calls: REQUESTS, prepare: handling(anonymous, 401), events: 5 },
    { name: 'the wrapper alone', calls: WRAPPER_CALLS, prepare: wrapper, events: 4 },
  ];
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-diagnostics-'));
  const builds = {};
  try {
    for (const kind of ['without', 'idle', 'subscribed']) {
      builds[kind] = {
        core: await bundle(dir, 'index.ts', kind),
        ...(await bundle(dir, 'service/diagnostics.ts', kind)),
      };
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const variants = [
    { id: 'without', name: 'without the feature', build: builds.without, subscribed: false },
    { id: 'idle', name: 'nobody subscribed', build: builds.idle, subscribed: false },
    { id: 'subscribed', name: 'one subscriber', build: builds.subscribed, subscribed: true },
  ];
  const { seen, handlers } = subscriber();
  tracingChannel(CHANNEL).subscribe(handlers);
  const cases = await scenarios();
  const results = cases.map(() => variants.map(() => []));

  const started = performance.now();
  // Two untimed rounds warm the JIT. In each round the three builds take turns every
  // 1/BATCHES of the round, so that other work on the machine falls on all three alike.
  for (let r = -2; r < ROUNDS; r += 1) {
    for (const [c, scenario] of cases.entries()) {
      const runs = [];
      for (const variant of variants) runs.push(await scenario.prepare(variant.build));
      const cpu = variants.map(() => 0);
      const before = variants.map(() => 0);
      const published = variants.map(() => 0);
      const batch = scenario.calls / BATCHES;
      for (let b = 0; b < BATCHES; b += 1) {
        for (let k = 0; k < variants.length; k += 1) {
          const v = (k + b) % variants.length;
          before[v] = seen.events;
          cpu[v] += await cpuOf(() => runs[v](batch));
          published[v] += seen.events - before[v];
        }
      }
      for (const [v, variant] of variants.entries()) {
        const expected = variant.subscribed ? scenario.events * scenario.calls : 0;
        if (published[v] !== expected) {
          throw new Error(
            `${scenario.name}, ${variant.name}: ${published[v]} events, not ${expected}`,
          );
        }
        if (r >= 0) results[c][v].push(cpu[v] / scenario.calls);
      }
      globalThis.gc?.();
    }
  }
  const seconds = (performance.now() - started) / 1000;
  tracingChannel(CHANNEL).unsubscribe(handlers);

  const signed = (value, decimals) =>
    `${value >= 0 ? '+' : '−'}${format(Math.abs(value), decimals)}`;
  const rows = cases.flatMap((scenario, c) => {
    const base = results[c][0];
    return variants.map((variant, v) => {
      const rounds = results[c][v];
      // Each round's difference to the build without the feature, then their median; and the
      // difference of the best rounds: other work on the machine only ever adds time.
      const delta = median(rounds.map((ns, i) => ns - base[i]));
      const best = Math.min(...rounds);
      const bestDelta = best - Math.min(...base);
      const versus = (difference, of) =>
        v === 0 ? '' : `${signed(difference)} ns (${signed((difference / of) * 100, 1)}%)`;
      return [
        scenario.name,
        variant.name,
        format(median(rounds)),
        versus(delta, median(base)),
        format(best),
        versus(bestDelta, Math.min(...base)),
        `${format(spread(rounds) * 100)}%`,
      ];
    });
  });
  const header = [
    'request',
    'build',
    'CPU ns, median',
    'vs without, median of pairs',
    'CPU ns, best round',
    'vs without, best rounds',
    'spread',
  ];
  const figures = table(header, rows, ['l', 'l', 'r', 'r', 'r', 'r', 'r']);
  const date = runDate();
  const machine = machineLine();
  console.log(`\n${figures}\n\n${ROUNDS} rounds, ${machine}, ${Math.round(seconds)} s.`);

  if (WRITE) {
    const page = join(ROOT, 'docs', 'reference', 'performance.md');
    const section = [
      '## Diagnostics channel',
      '',
      `_Written by \`pnpm --filter @plantstore/bench diagnostics --write\` on ${date} (${machine} at the end). \`pnpm bench\` keeps this section as it is._`,
      '',
      'What publishing each request on the `plantstore:create` TracingChannel ([hooks.md](hooks.md#diagnostics-channel))',
      'costs. `service.handle` runs on in-memory requests (no HTTP), one after the other, on `memoryStore()` and',
      'an HS256 `jwtBearer` (token cache on); _the wrapper alone_ times the diagnostics wrapper around a handler',
      'that answers at once. _Without the feature_ is the same sources built with the diagnostics module',
      'replaced by a pass-through; _nobody subscribed_ publishes on a channel nobody listens to; _one',
      'subscriber_ listens to all five events of `plantstore:create` for the whole run. All in one process:',
      `${ROUNDS} rounds (after two for warm-up) of ${format(REQUESTS)} requests (${format(WRAPPER_CALLS)} calls of the wrapper) per`,
      `build, the three builds taking turns ${BATCHES} times a round. CPU time (user + system) per request: the median of the rounds with the`,
      "median of each round's difference to the build without the feature, and the best round with the",
      'difference of the best rounds (other work on the machine only ever adds time).',
      '',
      figures,
      '',
      '_spread_: (highest − lowest) ÷ median of the rounds. A difference smaller than the spread of a whole',
      'request is noise, not a cost.',
    ].join('\n');
    writeFileSync(page, withKeptSection(readFileSync(page, 'utf8'), section));
    console.log(`Wrote the "Diagnostics channel" section of ${page}.`);
  }
}

await main();

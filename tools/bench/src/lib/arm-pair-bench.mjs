// The bench of an option's cost on a create, written once for `tenants.mjs` (#49) and `events.mjs`
// (#50): both arms, the option off and on, run in one server process per store (servers/arm-pair.mjs),
// so that they share JIT, heap and CPU; short rounds alternate off, on, on, off… so that each pair of
// rounds meets the same load on a busy machine; the figure is the median of the per-pair ratios, with
// their quartiles. CPU is the server's own (every thread), which other processes' load shifts less than
// requests per second. `--write` (or <PREFIX>_WRITE=1) puts the figures in
// docs/reference/performance.md. Settings: <PREFIX>_PAIRS, <PREFIX>_SECONDS, <PREFIX>_CONNECTIONS.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { signToken } from '../config.mjs';
import { withKeptSection } from './kept-section.mjs';
import { load } from './load.mjs';
import { startServer, threadCpuMicros } from './processes.mjs';
import { machineLine, runDate } from './run-info.mjs';
import { format, median } from './stats.mjs';
import { table } from './table.mjs';
import { wholeSetting } from './setting.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
/**
 * Runs the bench of one option and prints (or, with `--write`, writes) its section.
 *
 * @param {{ command: string, prefix: string, option: string, heading: string, tells: string, arms: string[] }} spec
 *   the bench's command and section name, its settings' prefix, the `BENCH_OPTION` of arm-pair.mjs, the
 *   section's heading, the margin the run must tell, and the lines that say what the arms are
 */
export async function runArmPairBench(spec) {
  // 12 pairs of 1 s rounds: about 30 s a store, within the minute a bench may take on a shared machine.
  const PAIRS = wholeSetting(`${spec.prefix}_PAIRS`, 12);
  const SECONDS = wholeSetting(`${spec.prefix}_SECONDS`, 1);
  const CONNECTIONS = wholeSetting(`${spec.prefix}_CONNECTIONS`, 20);
  const WRITE = process.argv.includes('--write') || process.env[`${spec.prefix}_WRITE`] === '1';

  const STORES = [
    { name: 'PostgreSQL (`postgresStore` on pg)', store: 'pg' },
    { name: 'Redis (`redisStore` on node-redis)', store: 'redis' },
  ];
  const RUN = `${process.pid}_${Date.now()}`;
  const token = await signToken();
  const ARM_HEADERS = Object.fromEntries(
    ['off', 'on'].map((arm) => [
      arm,
      { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-bench-arm': arm },
    ]),
  );

  /** One round on one arm: requests per second and the server's CPU µs per create. */
  async function round(server, arm, seconds) {
    const before = threadCpuMicros(server.pid);
    const result = await load({
      url: server.url,
      seconds,
      connections: CONNECTIONS,
      token: () => token,
      headers: () => ARM_HEADERS[arm],
    });
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(
        `${server.id} ${arm}: ${result.non2xx} answers not 2xx, ${result.errors} errors`,
      );
    }
    return {
      perSecond: result.perSecond,
      cpu: (threadCpuMicros(server.pid) - before) / result.answered,
    };
  }

  /** The pairs of one store: off and on, alternating which goes first. */
  async function measure(store) {
    const server = await startServer({
      id: `${spec.command}-${store.store}`,
      file: 'arm-pair',
      env: {
        BENCH_OPTION: spec.option,
        BENCH_STORE: store.store,
        BENCH_TABLE: `bench_plants_${spec.command}_${RUN}`,
      },
    });
    const pairs = [];
    try {
      for (const arm of ['off', 'on', 'off', 'on']) await round(server, arm, 1);
      for (let pair = 0; pair < PAIRS; pair += 1) {
        const order = pair % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
        const results = {};
        for (const arm of order) results[arm] = await round(server, arm, SECONDS);
        pairs.push(results);
      }
    } finally {
      await server.stop();
    }
    return pairs;
  }

  /** The quartiles of `values`: the first and the third. */
  function quartiles(values) {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => sorted[Math.round(q * (sorted.length - 1))];
    return [at(0.25), at(0.75)];
  }

  /** The median of `values` and their quartiles, as `1.02× (0.99–1.05)`. */
  function ratio(values) {
    const [low, high] = quartiles(values);
    return `${format(median(values), 3)}× (${format(low, 2)}–${format(high, 2)})`;
  }

  const started = performance.now();
  const loadBefore = loadavg()[0];
  const rows = [];
  // The widest gap between the quartiles of any ratio: wider than the goal's margin, the run cannot tell.
  let widest = 0;
  for (const store of STORES) {
    const pairs = await measure(store);
    const time = pairs.map((p) => p.off.perSecond / p.on.perSecond);
    const cpu = pairs.map((p) => p.on.cpu / p.off.cpu);
    console.log(
      `${store.store}: time ratios ${time.map((r) => r.toFixed(2)).join(' ')}; CPU ratios ${cpu.map((r) => r.toFixed(2)).join(' ')}`,
    );
    for (const values of [time, cpu]) {
      const [low, high] = quartiles(values);
      widest = Math.max(widest, high - low);
    }
    rows.push([
      store.name,
      format(median(pairs.map((p) => p.off.perSecond))),
      format(median(pairs.map((p) => p.on.perSecond))),
      ratio(time),
      `${format(median(pairs.map((p) => p.off.cpu)), 1)} vs ${format(median(pairs.map((p) => p.on.cpu)), 1)}`,
      ratio(cpu),
    ]);
  }
  const figures = table(
    [
      `create, ${spec.command} off vs on`,
      'off req/s',
      'on req/s',
      'time ratio on/off (quartiles)',
      'CPU µs/create off vs on',
      'CPU ratio on/off (quartiles)',
    ],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r'],
  );
  const date = runDate();
  const machine = machineLine();
  const seconds = (performance.now() - started) / 1000;
  const loads = `load average ${loadBefore.toFixed(1)} at the start`;
  const cores = availableParallelism();
  const busy = Math.max(loadBefore, loadavg()[0]) > cores;
  // Said with the figures, so that no one reads a noisy run as a measured cost.
  const doubts = [
    ...(busy ? [`the machine was busy (a load average above its ${cores} cores)`] : []),
    ...(widest > 0.1
      ? [`the quartiles of a ratio lie ${format(widest, 2)} apart, wider than the ±0.05 looked for`]
      : []),
  ];
  const verdict =
    doubts.length > 0
      ? `**Not a reliable figure**: ${doubts.join(', and ')}; run it again on a quiet machine.`
      : `The quartiles of every ratio lie within ${format(widest, 2)} of each other: the run can tell ${spec.tells}.`;
  console.log(
    `\n${figures}\n\n${verdict}\n${PAIRS} pairs × ${SECONDS} s a store, ${machine}, ${loads}, ${Math.round(seconds)} s.`,
  );

  if (WRITE) {
    const page = join(ROOT, 'docs', 'reference', 'performance.md');
    const section = [
      `## ${spec.heading}`,
      '',
      `_Written by \`pnpm --filter @plantstore/bench ${spec.command} --write\` on ${date} (${machine} at the end, ${loads}). \`pnpm bench\` keeps this section as it is._`,
      '',
      ...spec.arms,
      `both arms in one server process, ${CONNECTIONS} connections,`,
      `${PAIRS} pairs of ${SECONDS} s rounds, off and on in alternating order, after a warm-up. Each ratio is per pair,`,
      "on over off: the time per create (from requests per second) and the server's CPU time per create; the",
      'median of the pairs and their quartiles.',
      '',
      figures,
      '',
      verdict,
    ].join('\n');
    writeFileSync(page, withKeptSection(readFileSync(page, 'utf8'), section, spec.command));
    console.log(`Wrote the "${spec.heading}" section of ${page}.`);
  }
}

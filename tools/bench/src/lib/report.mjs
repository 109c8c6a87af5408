// The printed table and docs/reference/performance.md.
import { firstSection } from './first-report.mjs';
import { FIRST_REQUEST_SETUPS, FIRST_REQUESTS } from './first-requests.mjs';
import { CLOCK_TICKS } from './processes.mjs';
import { format, megabytes } from './stats.mjs';
import { ratioText, table } from './table.mjs';

const percent = (share, decimals = 0) => `${format(share * 100, decimals)}%`;
const signedPercent = (share) => `${share >= 0 ? '+' : '−'}${format(Math.abs(share) * 100, 1)}%`;
/** Memory passes when RSS grew by at most 10% (a fall is no leak). */
const memoryVerdict = (m) => (m.growth <= 0.1 ? 'met' : '**missed**');

/**
 * Ours over the baseline, both ways: throughput (req/s ÷ req/s) and CPU (baseline µs ÷ our µs, that
 * is, requests per CPU-second), from the medians; plus the lowest and highest CPU ratio of the rounds,
 * each round's pair measured seconds apart, which shows how firm the verdict is.
 */
export function ratios(results, comparisons) {
  const byId = new Map(results.map((r) => [r.id, r]));
  return comparisons.flatMap((comparison) => {
    const ours = byId.get(comparison.ours);
    const base = byId.get(comparison.base);
    if (ours === undefined || base === undefined) return [];
    const perRound = ours.rounds.map((round, i) => base.rounds[i].cpu / round.cpu);
    return [
      {
        ...comparison,
        throughput: ours.perSecond / base.perSecond,
        cpu: base.cpu / ours.cpu,
        cpuLow: Math.min(...perRound),
        cpuHigh: Math.max(...perRound),
      },
    ];
  });
}

/** The console table. */
export function consoleTable(results) {
  const header = ['setup', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'peak RSS MB'];
  header.push('non-2xx', 'spread', 'CPU spread', 'other load');
  const rows = results.map((r) => [
    r.id,
    format(r.perSecond),
    format(r.p50),
    format(r.p99),
    format(r.cpu, 1),
    megabytes(r.peak),
    String(r.non2xx),
    percent(r.spread),
    percent(r.cpuSpread),
    percent(r.other),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** The ratios, for the console. */
/** The targets, for the console. */
export function consoleTargets(rows) {
  return rows
    .map(
      (r) =>
        `${r.goal.padEnd(64)} ${ratioText(r.value).padStart(7)} (rounds ${r.low.toFixed(2)}–${r.high.toFixed(2)}) ${r.met ? 'met' : 'MISSED'}${r.firm ? '' : ', not firm'}`,
    )
    .join('\n');
}

export function consoleRatios(list) {
  return list
    .map((r) => {
      const pair = `${r.ours} / ${r.base}`.padEnd(36);
      const figures = `CPU ${ratioText(r.cpu).padStart(6)} (rounds ${r.cpuLow.toFixed(2)}–${r.cpuHigh.toFixed(2)})  req/s ${ratioText(r.throughput).padStart(6)}`;
      if (r.target === undefined) return `${pair} ${figures}`;
      const met = (x) => (x >= r.target ? 'met' : 'MISSED');
      return `${pair} ${figures}  target ${r.target}×: CPU ${met(r.cpu)}, req/s ${met(r.throughput)}`;
    })
    .join('\n');
}

function intro(date, durationS) {
  return [
    '# Performance',
    '',
    `_Written by \`pnpm bench\` (tools/bench) on ${date}, in ${Math.round(durationS)} s after the build. Do not edit: run it again._`,
    '',
    'The same job on every server: `POST /plants` with an HS256 bearer token whose signature, `exp`, `iss`',
    'and `aud` are checked, a body validated as `{ id: integer, name: string, tag?: string }`, an insert into',
    'an in-memory map (or a database), and `200 {"name","tag"}`. Echo servers only parse the body and answer',
    'it. Figures are medians of interleaved rounds; ratios compare setups of this same run only.',
    '',
  ];
}

/**
 * The targets, each from the medians and from every round alone (round i of every setup ran in the
 * same pass, seconds apart), with its verdict and whether the rounds agree on it.
 *
 * @param {object[]} results
 * @param {import('../setups.mjs').TARGETS} targets
 * @param {{ ours: string, echo: string }} reference - what a route's cost on node:http is
 */
export function targetRows(results, targets, reference) {
  const byId = new Map(results.map((r) => [r.id, r]));
  const cpuOf = (setup, round) => (round === undefined ? setup.cpu : setup.rounds[round].cpu);
  return targets.flatMap((t) => {
    const ours = byId.get(t.ours);
    let figure;
    let pair;
    let atMost;
    if (t.kind === 'route') {
      const echo = byId.get(t.echo);
      const refOurs = byId.get(reference.ours);
      const refEcho = byId.get(reference.echo);
      if ([ours, echo, refOurs, refEcho].includes(undefined)) return [];
      figure = (round) =>
        (cpuOf(ours, round) - cpuOf(echo, round)) / (cpuOf(refOurs, round) - cpuOf(refEcho, round));
      pair = `(\`${t.ours}\` − \`${t.echo}\`) ÷ (\`${reference.ours}\` − \`${reference.echo}\`)`;
      atMost = true;
    } else {
      const base = byId.get(t.base);
      if (ours === undefined || base === undefined) return [];
      atMost = t.kind === 'costlier';
      figure = atMost
        ? (round) => cpuOf(ours, round) / cpuOf(base, round)
        : (round) => cpuOf(base, round) / cpuOf(ours, round);
      pair = atMost ? `\`${t.ours}\` ÷ \`${t.base}\`` : `\`${t.base}\` ÷ \`${t.ours}\``;
    }
    const value = figure(undefined);
    const perRound = ours.rounds.map((_, round) => figure(round));
    const low = Math.min(...perRound);
    const high = Math.max(...perRound);
    const met = atMost ? value <= t.target : value >= t.target;
    const firm = atMost ? high <= t.target || low > t.target : low >= t.target || high < t.target;
    return [{ ...t, pair, value, low, high, atMost, met, firm }];
  });
}

const targetVerdict = (row) =>
  `${row.met ? 'met' : '**missed**'}${row.firm ? '' : ' (rounds straddle it)'}`;

function targetsSection(rows, memoryResults, skipped) {
  const out = [
    '## Targets of issue 17',
    '',
    'Each target is a ratio of server CPU µs per request within this run; _rounds_ is the lowest and',
    "highest ratio of single rounds (a target inside it is not firm). A route's cost is its setup's CPU",
    "less its framework's echo, over the same on node:http.",
    '',
    table(
      ['target', 'ratio (CPU µs per request)', 'median', 'rounds', 'verdict'],
      rows.map((r) => [
        r.goal,
        r.pair,
        ratioText(r.value),
        `${r.low.toFixed(2)}–${r.high.toFixed(2)}`,
        targetVerdict(r),
      ]),
      ['l', 'l', 'r', 'r', 'l'],
    ),
    '',
  ];
  if (memoryResults.length === 0) {
    out.push(
      'Memory (RSS after 60 s within 10% of RSS after 10 s): not run, see [Memory](#memory).',
      '',
    );
  } else {
    const list = memoryResults.map(
      (m) => `\`${m.id}\` ${signedPercent(m.growth)} (${memoryVerdict(m).replaceAll('*', '')})`,
    );
    out.push(
      `Memory, RSS after ${memoryResults[0].seconds} s of load against RSS after ${memoryResults[0].early} s (at most +10%): ${list.join(', ')}; see [Memory](#memory).`,
      '',
    );
  }
  if (skipped.length > 0) out.push(`Not measured in this run: ${skipped.join('; ')}.`, '');
  return out;
}

function resultsSection(results, ratioList) {
  const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  const answers =
    failed.length === 0
      ? 'Every round of every setup answered 2xx only.'
      : `**Non-2xx answers or errors under load: ${failed.map((r) => `${r.id} (${r.non2xx} non-2xx, ${r.errors} errors)`).join(', ')}.**`;
  return [
    '## Results',
    '',
    '![req/s and server CPU µs per request for each setup](performance.svg)',
    '',
    table(
      ['setup', 'what it is', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'peak RSS MB'].concat(
        'spread req/s',
        'spread CPU',
        'other load',
      ),
      results.map((r) => [
        `\`${r.id}\``,
        r.label,
        format(r.perSecond),
        format(r.p50),
        format(r.p99),
        format(r.cpu, 1),
        megabytes(r.peak),
        percent(r.spread),
        percent(r.cpuSpread),
        percent(r.other),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    "_spread_: (highest − lowest) ÷ median of the rounds' figure. _other load_: the share of the machine's",
    'CPU that neither the server nor the load generator used during its rounds (median): other work running',
    'at the same time. ' + answers,
    '',
    'Peak RSS grows with the plants a setup kept: a faster setup keeps more.',
    '',
    '### All ratios',
    '',
    'Baseline CPU per request ÷ ours (above 1: ours costs less), and the same by req/s.',
    '',
    table(
      ['ours', 'baseline', 'by CPU per request', 'rounds', 'by req/s'],
      ratioList.map((r) => [
        `\`${r.ours}\``,
        `\`${r.base}\``,
        ratioText(r.cpu),
        `${r.cpuLow.toFixed(2)}–${r.cpuHigh.toFixed(2)}`,
        ratioText(r.throughput),
      ]),
      ['l', 'l', 'r', 'r', 'r'],
    ),
    '',
  ];
}

/** What the profiles showed, and what was done about it (written by hand; update it with the code). */
function profileSection() {
  return [
    '## Where the time goes',
    '',
    'From `pnpm --filter @plantstore/bench profile` (`node --cpu-prof` under load) and in-process',
    'profiles of `service.handle`:',
    '',
    "- **The store time-out** once cost a fifth of the route's CPU (an `AbortController`, a timer and a",
    '  `Promise.race` per insert). Every insert and body read now waits on one deadline list with one',
    '  timer (`common/deadline-list.ts`), and `context.signal` is built only when a store reads it: a',
    '  cached request went from about 17 µs to 6–8 µs in process.',
    "- **The node entry against the node:http echo**: 1.39× the echo's CPU a request (59.9 against",
    "  43.2 µs, 11-26), short of 1.3×. The main thread's extra time pays for checks the echo skips: the",
    "  strict JSON reader (2.2 µs), the body read with its limit and time-out (3.0), the store's time-out,",
    "  replay and frozen copy (2.1), the cached token's byte-for-byte match and window (1.3), the answer",
    '  and its `Cache-Control` and `Vary` (1.4), the route match and the `Authorization` read (1.9), the',
    '  schema (0.7). Nothing left costs without a check going with it.',
    "- **Token cache off**: most of either request is the same WebCrypto HMAC call, dispatched to libuv's",
    '  thread pool; only a verification outside WebCrypto would close the gap, and jose stays the verifier',
    '  for every token. With the cache, the node entry costs less than half of the hand-written server',
    '  (23.5 against 59.9 µs).',
    '- **DPoP** cannot come within 1.5× of a cached bearer request: every proof pays one ES256',
    '  verification no cache can hold (43 µs of WebCrypto dispatch on the main thread, about 70 µs on the',
    '  pool). A proof header is read once per distinct header and the replay call waits on the deadline',
    '  list: in process, 165 to 139 µs a request.',
    '- **First requests**: `service.warmUp()` runs the route on a sample request before the first client',
    "  (see the first-request section); what remains is the user's key, store and framework.",
    '- **PostgreSQL**: both stores send the same statements; at a fixed 5,000 requests a second the plant',
    "  store used 77.3 µs a request against the hand-written one's 78.8 (1.02×). At full load the ratio",
    '  follows how many inserts the shared server lets each complete, which moves from run to run.',
    '- **Express**: `plantRouter` reads and answers for less than `express.json()` plus `res.json()`, so',
    "  the route costs less than the echo's parsing alone.",
    "- **Bun and Deno**: a body of a declared length is read with the runtime's own `arrayBuffer()`",
    '  (`body/read-whole-body.ts`), the URL parsed only when its path is not plain, the success headers',
    '  built once: on Bun 1.4.5 the fetch entry went from 19.8 to 12.8 µs in process. Under load it served',
    '  1.60× the requests of Hono + `hono/jwt` + valibot on Bun (2.08× less CPU each), 2.66× on Deno',
    "  (`hono/jwt` verifies every request's HMAC). On local workerd the two were within noise.",
    '',
  ];
}

function memorySection(memoryResults, options) {
  const out = ['## Memory', ''];
  if (memoryResults.length === 0) {
    out.push(
      'Not run this time: `BENCH_MEMORY=1 pnpm bench` runs it (about seven minutes more).',
      '',
    );
    return out;
  }
  const { seconds, early } = memoryResults[0];
  out.push(
    `A fresh server of each setup under ${seconds} s of load from ${options.connections} connections. The load cycles through`,
    '2,000 distinct tokens, twice what the verified-token cache holds, so the cache fills and evicts',
    'throughout and jose verifies nearly every request; and through 10,000 ids, so',
    'that memoryStore, which keeps every plant by design, stops growing in the first second and what is',
    'left to watch is the route itself. The target counts growth only: a fall of RSS is no leak.',
    '',
    table(
      [
        'setup',
        `RSS after ${early} s`,
        `RSS after ${seconds} s`,
        'change',
        'peak RSS',
        'req/s',
        'at most +10%',
      ],
      memoryResults.map((m) => [
        `\`${m.id}\``,
        `${megabytes(m.rssEarly)} MB`,
        `${megabytes(m.rssEnd)} MB`,
        signedPercent(m.growth),
        `${megabytes(m.peak)} MB`,
        format(m.perSecond),
        memoryVerdict(m),
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'l'],
    ),
    '',
  );
  return out;
}

function coldSection(cold, options) {
  if (cold.length === 0)
    return ['## Cold start', '', 'Not run this time (`BENCH_COLD_RUNS=0`).', ''];
  return [
    '## Cold start',
    '',
    'A fresh `node` process imports the package and creates the service (`jwtBearer` with a secret,',
    `\`memoryStore\`), ${options.coldRuns} times, the probes interleaved, after one run each that warms the file cache;`,
    'medians. _import + create_ is timed inside the process around exactly that; _ready_ is the time from',
    'process start to the same point; _process_ is the whole spawn, exit included, seen from outside.',
    '',
    table(
      ['what', 'import + create ms', 'ready ms', 'process ms'],
      cold.map((c) => [c.name, format(c.work, 1), format(c.ready, 1), format(c.wall, 1)]),
      ['l', 'r', 'r', 'r'],
    ),
    '',
  ];
}

function machineSection(machine) {
  return [
    '## Machine and versions',
    '',
    `- ${machine.cpus} × ${machine.cpuModel}, ${format(machine.memoryGB, 1)} GB, ${machine.os}`,
    `- Node ${machine.node}; load average ${machine.loadBefore} before the run, ${machine.loadAfter} after (other work shares this machine)`,
    `- Plantstore at ${machine.commit}: ${machine.ours}`,
    `- ${machine.frameworks}`,
    `- PostgreSQL: ${machine.postgres}`,
    '',
  ];
}

function methodSection(options) {
  return [
    '## Method',
    '',
    '- Every server runs in its own process on 127.0.0.1 (`tools/bench/src/servers/`, one file per',
    '  setup) on the built packages, and must first answer eleven sample requests as every other does.',
    `- Load: [autocannon](https://github.com/mcollina/autocannon), ${options.connections} connections, \`POST /plants\`, a fresh id`,
    '  each, one token (as a client reuses its token).',
    `- ${options.rounds} rounds of ${options.seconds} s per setup after ${options.warmup} s of warm-up, interleaved forwards and backwards, so`,
    "  the machine's drifts touch every setup alike; figures are the rounds' medians. A PostgreSQL round",
    '  starts after a `CHECKPOINT` on a quiet machine.',
    '- Server CPU per request: utime + stime of the server process (all threads) from `/proc/<pid>/stat`,',
    "  over the requests answered. Peak RSS: `VmHWM`. Latencies: autocannon's. Other load: the machine's",
    "  busy time less the server's and the runner's.",
    '- Baselines as a competent developer writes them: the key imported once, jose checking `iss`, `aud`',
    "  and `alg`, the framework's JSON parser, a schema built once; Fastify with a body and response",
    '  schema and `@fastify/jwt`; on Bun and Deno, Hono 4 + `hono/jwt` + `@hono/valibot-validator`.',
    '- Ours: the adapters on bare apps and `createNodeHandler`, on `memoryStore()` with',
    '  `jwtBearer({ secret, issuer, audience })` (token cache on, as by default); `node-plant-dpop` sends a',
    '  new ES256 proof with each request, signed outside the timing.',
    `- First requests: each of ${FIRST_REQUEST_SETUPS.map((id) => `\`${id}\``).join(', ')}`,
    `  is spawned afresh ${options.firstRuns} times, interleaved, and sent ${FIRST_REQUESTS} requests one after another; CPU from`,
    `  \`/proc/<pid>/stat\` (ticks of ${format(1000 / CLOCK_TICKS)} ms) and \`/proc/<pid>/task/*/schedstat\`. \`+warm-up\` variants await`,
    '  `service.warmUp()` before listening. `pnpm --filter @plantstore/bench first` runs this part alone.',
    '- Storage: the node entry on `postgresStore` against a hand-written store of the same two statements,',
    `  on PGlite and on a \`pg\` Pool of ${options.poolSize}.`,
    '- Settings: `BENCH_ROUNDS`, `BENCH_SECONDS`, `BENCH_WARMUP`, `BENCH_CONNECTIONS`, `BENCH_ONLY`,',
    '  `BENCH_OUT`, `BENCH_MEMORY=1`, `BENCH_COLD_RUNS`, `BENCH_FIRST_RUNS`, `BENCH_DPOP_RATE`, `DATABASE_URL`;',
    '  `pnpm --filter @plantstore/bench profile [setup …]` profiles setups under load.',
    '',
  ];
}

/**
 * @param {object} run - everything the runner gathered
 * @returns {string} docs/reference/performance.md
 */
export function markdown(run) {
  const {
    results,
    ratioList,
    targets,
    memoryResults,
    cold,
    first = [],
    machine,
    options,
    skipped,
    date,
    durationS,
  } = run;
  return [
    ...intro(date, durationS),
    ...targetsSection(targets, memoryResults, skipped),
    ...resultsSection(results, ratioList),
    ...profileSection(),
    ...memorySection(memoryResults, options),
    ...coldSection(cold, options),
    ...firstSection(first, options),
    ...machineSection(machine),
    ...methodSection(options),
  ].join('\n');
}

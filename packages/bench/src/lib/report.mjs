// The printed table and docs/performance.md.
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
    `_Written by \`pnpm bench\` (packages/bench) on ${date}, in ${Math.round(durationS)} s after the build. Do not edit: run it again._`,
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
    'Every target is a ratio of server CPU µs per request within this run (load generator and servers',
    'share two cores with other work, which moves req/s far more than CPU per request). _rounds_ gives',
    'the lowest and highest ratio of single rounds, each from figures measured seconds apart: a target',
    "inside that range is not firm, and says so. A route's cost is its setup's CPU less its",
    "framework's echo (which parses the body and answers it), over the same on node:http.",
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
    'Peak RSS follows the plants kept: every setup keeps each created plant for the whole run, so a',
    'faster setup keeps more. memoryStore also keeps a frozen copy of each plant; the hand-written',
    'servers keep plain objects.',
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
    'profiles of `service.handle` (no HTTP), issue 17:',
    '',
    "- **The store time-out** cost a fifth of the route's own CPU: an `AbortController` per insert (Node",
    '  20 takes microseconds to build an `AbortSignal`), a timer and a `Promise.race`. Every insert and',
    '  every body read of a service now waits on one deadline list with one timer (`common/deadline-list.ts`);',
    '  `context.signal` is built only when a store reads it, and stores follow the time-out through',
    '  `cancellation(context)`, as `@plantstore/postgres` does with one promise and one listener per',
    '  statement. In-process, a cached request went from about 17 µs to 6–8 µs.',
    '- **Smaller steps**: a validated plant was a frozen null-prototype object, and `Object.freeze` on',
    "  V8's dictionary-mode objects cost 0.5 µs (now a frozen instance of a class that inherits nothing,",
    '  57 ns); a plant that plainly meets the schema skips valibot, which still decides and words every',
    '  refusal; `memoryStore` keys ids within 2^53 by number; the token is matched by a sticky regex (220',
    '  ns against 540 ns for the character loop); Node headers are read in one pass over `rawHeaders`;',
    '  with one algorithm, jose gets the imported key itself instead of a resolver (one await less).',
    '- **What remains** on the node entry: `writev` holds most sampled wall time (the same one call per',
    "  answer as in the echo servers); the route's own code is about 10 µs under load, spread over the",
    '  strict JSON read, the token cache lookup (a `Map` keyed by the whole token), the memory store and',
    "  garbage collection of the request's promises.",
    '- **Token cache off** (`node-plant-nocache` against `node-hand`): both make the same jose call with',
    '  the same `CryptoKey`, and most of either request is that call: WebCrypto builds a job, a promise',
    "  and hands the HMAC to libuv's thread pool. Measured per thread (`/proc/<pid>/task/*/schedstat`,",
    '  6 interleaved rounds, 11-24): the other threads (the pool, the garbage collector) spend 12.5 and',
    '  13.2 µs a request; the whole gap is on the main thread, 46.6 µs against 42.3. Two parts:',
    '  - _the route_: with a cached token, the node entry costs the main thread 4.0 µs a request more',
    '    than the node:http echo (17.9 against 13.9 µs). That is the route doing what the hand-written',
    '    server skips: the strict JSON reader (exact int64 ids, duplicate keys refused), the content type',
    '    and encoding checks, a frozen principal, a frozen copy in the store, and `Cache-Control: no-store`',
    '    and `Vary` on every answer (RFC 6750 §5.3). The hand-written server spends about 2 µs on its',
    '    regex, `JSON.parse`, valibot and `Map`.',
    '  - _the verification_: in-process, with 50 verifications in flight, `jwtBearer` with the cache off',
    '    costs 3.4 µs of CPU above the same bare `jwtVerify` call (4.0 µs before its four async layers',
    '    became one `then`, 11-24). Our own code is about 0.5 µs of it (the compact-JWS check, the token',
    '    type, the principal). The rest is the thread pool: work between two verifications lets its',
    '    threads fall asleep, and their wake-ups cost kernel time. A busy-wait of 0.5 µs before each of',
    "    the bare loop's calls adds 2.3 µs of CPU a call by itself.",
    '',
    '  So the target asks the whole route to cost less than a server that checks less. Only a',
    "  verification outside WebCrypto would close it (`node:crypto`'s synchronous HMAC costs 3.4 µs",
    "  against WebCrypto's 10 µs in a batch and 41 µs one at a time). We keep jose for every token: it is",
    '  the verifier the contract names and the security review trusts, and the token cache is what makes',
    '  a token seen before cheap: with it, the node entry costs less than half of what the hand-written',
    '  server does (23.5 against 59.9 µs on 11-24).',
    '',
    '- **DPoP** cannot come within 1.5× of a cached bearer request: every proof is new (its own `jti`),',
    '  so every request pays one ES256 signature verification, which no cache can hold. Under load the',
    '  profile of `node-plant-dpop` puts 129 µs of main-thread time on a request: 57 µs in `node:crypto`,',
    "  of which 43 µs is WebCrypto's dispatch of the verification (its job object, its promise, the hand-off",
    '  to the thread pool), 17 µs in `writev`, 11 µs in jose and 14 µs in the whole of `@plantstore/core`;',
    "  the ECDSA verification itself then runs on the thread pool, about 70 µs more of the server's CPU. A",
    '  synchronous `node:crypto.verify` costs 69 µs in all, so the proof check could shed about a third by',
    '  leaving jose; we keep jose for every signature, as for tokens. Either way the target is out of',
    '  reach on this machine: that one verification costs more than 1.5× a whole cached bearer request',
    '  (23.5 µs on 11-24), which verifies no signature at all. Around the verification, the proof',
    '  check used to cost as much again: the header decoded, its RFC 7638 thumbprint hashed and its key',
    '  looked up on every proof, a timer and an `AbortController` per replay-store call, a character loop',
    '  over 700 characters. A proof header is now read once per distinct header (a client signs every',
    '  proof under one), the replay call waits on the deadline list, and the compact-JWS check is one',
    '  linear regular expression: in-process, with 50 requests in flight, a DPoP request went from about',
    '  165 to 139 µs of CPU (a cached bearer request: 8 µs). See also the in-process figures below.',
    "- **First requests**: V8 compiles a function when it first runs it, so a new process's first",
    '  request pays for compiling the whole route. `service.warmUp()` runs the route before the first',
    '  client, on a sample request of its own (its own service, a secret drawn for that one call and a',
    "  token signed for it at run time, a store that keeps nothing; the user's auth, store and hooks are",
    '  never called), twice: a token verified and a Node stream read, then the token from the cache, both',
    '  shaped as the Node adapters hand requests over (`nodeHeaderReader`, a Node stream), so that the',
    '  type feedback V8 keeps from them is that of real requests. Nothing runs it unasked: `ready()` runs',
    '  it, the Fastify plugin awaits it while it registers, and a host awaits it before it listens. The',
    '  first-request section measures the node entry, Express 5 and Koa 3 with and without it in the same',
    '  run (`pnpm --filter @plantstore/bench first` runs that part alone). On 11-26, on a loaded machine',
    "  (load average 7 to 38 on its two cores), 31 fresh servers of each: the first request's CPU 1.79×",
    "  to 2.12× lower with it (every single run's ratio above 1), its wall time 1.51× to 2.03× lower; the",
    '  next 99 requests showed no firm difference (0.86× to 1.45×, runs on both sides of 1), and',
    "  listening came 0.98× to 1.05× as late. What is left is the user's key's first verification, the",
    "  store's first call, and the framework's own first request; the next 99 run while V8 still tiers",
    '  the route up, which no warm-up of a few requests changes.',
    '- **PostgreSQL**: the stores send the same two statements through the same `pg`. Ours casts',
    "  (`$1::bigint`, `RETURNING id::text`) so that a host's global int8 parser cannot change an id;",
    '  alone, six alternating runs of 15,000 inserts from 50 clients put the two forms within noise of',
    '  each other (12,500 to 13,000 inserts/s). The PostgreSQL server shares the two cores (the _other',
    "  load_ column, about 40%), and a setup's CPU per request follows how fast it answers in that round:",
    '  62 to 87 µs for the same setup within six rounds of one run on 11-24, the faster rounds cheaper,',
    '  as the server then wakes for more answers at a time. Over those six rounds, per thread, the',
    '  medians were 78.1 µs for `pg-plant` and 73.3 for `pg-hand`, nearly all of the gap on the main',
    "  thread. Profiled under load the same day, the main thread's work outside `writev` came to 47.0 µs",
    '  a request against 42.4: `@plantstore/postgres` itself 1.7 µs (the hand-written store 0.6; ours',
    '  follows the time-out with one listener per statement, keeps the inserts in flight for `close()`',
    "  and checks what the server answered), the rest spread over `pg-protocol`, Node's streams and",
    '  garbage collection, under a microsecond each, inside rounds that swing by 30%. Until 11-24 the',
    '  rounds ran the setups in one order, so `pg-plant` always met the server still flushing the',
    "  baseline's inserts; the order now alternates, and each PostgreSQL round starts after a",
    '  `CHECKPOINT` on a quiet machine (see Method), which took the rounds of a short run from 0.84–1.30',
    '  to 0.95–1.22 and 0.86–1.09. Given the same load, instead of as much as each can take, the gap is',
    "  gone: at a fixed 5,000 requests a second (autocannon's `overallRate`), eight interleaved rounds",
    '  each, `pg-plant` used 77.3 µs a request and `pg-hand` 78.8 (1.02×), where eight rounds at full',
    '  load just before gave 75.6 against 72.4 (0.96×); two other full-load runs of six rounds that day',
    '  gave 0.94× and 1.02×. Our store costs no more CPU per insert; at full load the ratio follows how',
    '  many inserts the shared PostgreSQL server lets each setup complete, which moves from run to run.',
    '- **Route cost on Express** comes out below zero: `plantRouter` reads and answers for less than',
    "  `express.json()` plus `res.json()` cost the Express echo, so the route's whole job costs less than",
    "  the echo's parsing alone.",
    '- **The fetch entry on Bun and Deno** (issue 29): profiled with `bun --cpu-prof` under load and in',
    '  process (`service.fetch` on a cached token and a 60-byte body, 50 in flight), the route spent a',
    '  third of its time reading the body through a stream reader: `getReader`, an async generator, a',
    '  `Promise.race` and a timer per request. A body of a declared `Content-Length` within the limit is',
    "  now read with the runtime's own `arrayBuffer()` (`body/read-whole-body.ts`): the runtime's HTTP",
    '  server frames the body by that length, the limit is checked again on the bytes, and the strict',
    '  UTF-8 and JSON reader and exact int64 ids are unchanged; a chunked body still goes through the',
    '  stream, stopped at the limit. The URL is parsed only when its path is not plain',
    '  (`http/url-path.ts`), the shared success headers are a `Headers` built once (Bun copies one into',
    "  a `Response` in half the time of a record), and `request.signal` is never read (Deno's",
    '  legacy-abort warning; Bun builds the signal on first read). In process on Bun 1.4.5, the fetch',
    '  entry went from 19.8 to 12.8 µs a request, against 4.6 µs for `new Request` + `request.json()` +',
    '  `new Response` in the same process. Under load on 11-26 (6 interleaved rounds of 5 s, a quiet',
    '  machine), the fetch entry served 1.60× the requests of Hono 4 + `hono/jwt` + valibot on Bun at',
    "  2.08× less CPU a request (rounds 1.80–2.28), and 2.66× at 3.04× less on Deno (2.75–3.37): Hono's",
    '  `jwt()` verifies the HMAC of every request, the fetch entry takes a token it has seen from its cache.',
    '  On workerd through miniflare (no `nodejs_compat`, the same two apps bundled as Workers, 6',
    '  interleaved rounds of 5 s, CPU of each workerd process), the fetch entry served 2,828 requests a',
    '  second at 424 µs of CPU each, Hono 2,532 at 478 µs: 1.12× by req/s, 1.13× by CPU, rounds 0.96–1.51,',
    '  so not firm. Both cost about ten times what they cost on Bun, so most of what is measured there',
    '  is the local workerd set-up rather than either app: a local figure, not one for deployed Workers.',
    '- **The node entry against node:http echo** (issue 29): on 11-26 the node entry cost 1.39× the',
    "  echo's CPU a request (59.9 against 43.2 µs; rounds 1.32–1.52), short of 1.3×. Profiled under load",
    "  the same day (`profile`, 8 s each), the main thread was busy 55.7 µs a request against the echo's",
    '  31.2. Where the difference goes, and the check each part pays for (µs a request, main thread):',
    '',
    '  | part                                        |   µs | what it pays for                                                                                                                                                   |',
    '  | ------------------------------------------- | ---: | ------------------------------------------------------------------------------------------------------------------------------------------------------------------ |',
    '  | `writev`, sampled wall time                 | +8.7 | the same one call as the echo; three more header fields (`Cache-Control: no-store`, `Vary`, RFC 6750 §5.3) and the time descheduled while the load generator wakes |',
    '  | the strict JSON reader (`readPlantJson`)    |  2.2 | duplicate keys, `__proto__`, depth 64, lone surrogates, ids read exactly from the digits (int64)                                                                   |',
    '  | the body read (`readBody`, `readPlantBody`) |  3.0 | the 16 KiB limit while reading, the read time-out, 413 on a declared length before reading, strict UTF-8                                                           |',
    '  | the store (`insertPlant`, `memoryStore`)    |  2.1 | the store time-out on the deadline list, replay (200) against conflict (409), a frozen copy no caller can change                                                   |',
    '  | the token (`verify`, a cache hit)           |  1.3 | the token matched byte for byte, its `exp`/`nbf` window checked again, the key set version, its `cnf` binding                                                      |',
    '  | the answer (`plantAnswer`)                  |  1.4 | the body; text that needs no escaping is now written as it is (0.1 µs against 0.33 for `JSON.stringify`, byte for byte the same)                                   |',
    '  | the handler and the credentials             |  1.9 | the route match (404/405), the `Authorization` field read from the raw headers (a repeated one refused)                                                            |',
    '  | the schema (`validatePlant`)                |  0.7 | the id within int64, `name` and `tag` strings                                                                                                                      |',
    '',
    "  The rest is Node's own work that the echo does not do as often (promises the route awaits,",
    '  garbage collection of what they allocate). No part pays for nothing: what could go without a',
    '  check going with it is gone, and the remaining gap to 1.3× is about 5 µs of checks and headers.',
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
    '- Every server runs in its own process on 127.0.0.1 (`packages/bench/src/servers/`, one file per',
    '  setup) and imports the built packages. The runner first sends each server the same eleven requests',
    '  (valid creates, a replay, a conflict, a missing token, tokens of another issuer and audience, four bad',
    '  bodies) and stops unless every server answers the same statuses and bodies; echo servers answer only',
    '  the first.',
    `- Load: [autocannon](https://github.com/mcollina/autocannon) in the runner process, ${options.connections} connections, \`POST /plants\`,`,
    '  each request with a fresh id, all with the same token (as a real client reuses its token).',
    `- ${options.rounds} rounds of ${options.seconds} s per setup, interleaved, forwards in odd rounds and backwards in even ones`,
    `  (A B C … C B A …), after ${options.warmup} s of warm-up each, so that drifts of the machine touch every setup alike and no`,
    "  setup always follows the same neighbour (whose load may leave work behind, such as PostgreSQL's",
    '  flushing). Figures are the medians of the rounds. Before each round of a PostgreSQL setup the',
    '  server writes out what earlier rounds left dirty (`CHECKPOINT`) and the runner waits, at most 5 s,',
    '  until the machine is less than 10% busy over 100 ms; other setups start 200 ms after the last.',
    '- Server CPU per request: utime + stime of the server process (all its threads, so WebCrypto and the',
    '  libuv pool count) from `/proc/<pid>/stat` before and after each round, divided by the requests',
    '  answered. Peak RSS: `VmHWM` of `/proc/<pid>/status` after the last round. Latency percentiles are',
    "  autocannon's (1 ms resolution). Other load: busy time of `/proc/stat` less the server's and the",
    "  runner's own CPU time, over the machine's capacity during the round.",
    '- Hand-written baselines are written as a competent developer would: the key imported once as a',
    '  `CryptoKey` (jose re-imports raw secret bytes on every call), jose checking `iss`, `aud` and `alg`,',
    '  `express.json()` / `@koa/bodyparser` / `JSON.parse`, type checks or a valibot schema built once.',
    '  Fastify uses a body schema, a response schema and `@fastify/jwt` in an `onRequest` hook, with its',
    '  defaults.',
    '- Ours: `plantRouter`, `plantRoutes` and `plantPlugin` on bare apps (they read the raw body',
    '  themselves) and `createNodeHandler`, all on `memoryStore()` with',
    '  `jwtBearer({ secret, issuer, audience })`, so the verified-token cache is on, as by default; `node-plant-nocache` turns it off',
    '  (`cache: false`). `node-plant-dpop` adds `dpop: dpopBinding()` (a memory replay store sized for the run):',
    '  every request carries a DPoP-bound token and a proof of its own, ES256, signed by the runner before',
    '  each round and outside its timing (`BENCH_DPOP_RATE` proofs per second of the round).',
    '- Bun and Deno: the `bun-*` and `deno-*` setups run under the binaries the `bun` and `deno` npm',
    "  packages ship (their platform packages, as the tests find them), on the runtime's own server",
    '  (`Bun.serve`, `Deno.serve` with `--allow-net=127.0.0.1 --allow-env --allow-read`). Ours is the fetch',
    "  entry as the server's whole handler. The baseline is what a Hono user writes: Hono 4, `hono/jwt`",
    '  (HS256 with `iss` and `aud` checked; it keeps no cache, so it verifies every request) and',
    '  `@hono/valibot-validator` on the same schema, a `Map`. The echo parses with `request.json()`.',
    '- First requests: after the rounds and the cold start, with no other server running, each setup of',
    `  ${FIRST_REQUEST_SETUPS.map((id) => `\`${id}\``).join(', ')}`,
    `  that the run has is spawned afresh ${options.firstRuns} times, run 1 of every setup, then run 2, and so on (after one`,
    "  unmeasured run that warms the runner's own HTTP client). _spawn → listening_ runs from the spawn to",
    `  the runner reading the \`{"port":N}\` line. At once the runner sends ${FIRST_REQUESTS} \`POST /plants\` one after`,
    '  another (`node:http`, one kept-alive socket, a fresh id each, the same token), each answer checked to',
    `  be 200: _first request_ runs from its start to the end of its answer, connection included; _next ${FIRST_REQUESTS - 1}_`,
    `  is the sum of the others'. _CPU to the ${FIRST_REQUESTS}th_ is the server's utime + stime from \`/proc/<pid>/stat\` after the`,
    `  last answer, start-up included, in ticks of ${format(1000 / CLOCK_TICKS)} ms; _CPU of the ${FIRST_REQUESTS} requests_ is what its threads`,
    '  ran from the port line to the last answer, from the nanosecond counters of',
    '  `/proc/<pid>/task/*/schedstat`. The ratios of single runs (run i of both setups, seconds apart) show',
    '  how firm a ratio is.',
    "  _Its CPU_ is what the server's threads ran from the port line to the end of the first answer.",
    '  `node-plant`, `express5-plant` and `koa3-plant` also run as a `+warm-up` variant, measured right',
    '  after them: the same server with `BENCH_WARM_UP=on`, which awaits `service.warmUp()` before it',
    '  listens; their ratios are without ÷ with. `pnpm --filter @plantstore/bench first` runs this part',
    '  alone (`BENCH_FIRST_RUNS`, default 15; `BENCH_ONLY`) and prints it without writing the page.',
    '- Storage: the node entry on `postgresStore` against the same entry on a hand-written store',
    '  (`INSERT … ON CONFLICT (id) DO NOTHING RETURNING id`, then a `SELECT` when nothing was inserted, the',
    '  same row), so the ratio isolates the store. PGlite runs in a fresh temporary directory; PostgreSQL through a `pg`',
    `  Pool of ${options.poolSize} in both, each in a fresh table dropped afterwards. Their CPU figure is the Node process only.`,
    '- Settings: `BENCH_ROUNDS`, `BENCH_SECONDS`, `BENCH_WARMUP`, `BENCH_CONNECTIONS`, `BENCH_ONLY`',
    '  (comma-separated setup ids; the docs are then not written unless `BENCH_OUT` names a directory),',
    '  `BENCH_MEMORY=1`, `BENCH_MEMORY_SECONDS`, `BENCH_COLD_RUNS`, `BENCH_FIRST_RUNS`, `BENCH_DPOP_RATE`,',
    '  `DATABASE_URL`.',
    '- Where the time goes: `pnpm --filter @plantstore/bench profile [setup …]` runs the node entry and the',
    '  Express adapter (or the setups named) under load with `node --cpu-prof` and prints self time by',
    '  function and by module, our bundles mapped back to their TypeScript sources.',
    '',
  ];
}

/**
 * @param {object} run - everything the runner gathered
 * @returns {string} docs/performance.md
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

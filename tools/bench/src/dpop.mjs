// `pnpm --filter @plantstore/bench dpop`: what DPoP (RFC 9449) costs a request. `service.handle`
// runs on in-memory requests (no HTTP, no sockets) in one process, on the built core, in interleaved
// rounds: a plain Bearer token against a DPoP-bound token with a fresh proof per request (signed
// before the round, untimed), the token cache on and off. `--write` (or DPOP_WRITE=1) puts the
// figures in docs/reference/performance.md. Settings: DPOP_ROUNDS, DPOP_REQUESTS.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import console from 'node:console';
import { SignJWT } from 'jose';
import { createPlantService, dpopBinding, jwtBearer, memoryStore } from '@plantstore/core';
import { createDpopClient } from '@plantstore/core/testing';
import { AUDIENCE, ISSUER, SECRET } from './config.mjs';
import { withKeptSection } from './lib/kept-section.mjs';
import { table } from './lib/table.mjs';
import { machineLine, runDate } from './lib/run-info.mjs';
import { format, median, spread } from './lib/stats.mjs';
import { wholeSetting } from './lib/setting.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PUBLIC_URL = 'https://plants.bench.test';
const HTU = `${PUBLIC_URL}/plants`;

const BATCHES = 10;
const ROUNDS = wholeSetting('DPOP_ROUNDS', 15);
const REQUESTS = Math.ceil(wholeSetting('DPOP_REQUESTS', 1_000) / BATCHES) * BATCHES;
const WRITE = process.argv.includes('--write') || process.env.DPOP_WRITE === '1';

const client = await createDpopClient('ES256');
const sign = (claims) =>
  new SignJWT({ scope: 'plants:write', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject('bench-client')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(new TextEncoder().encode(SECRET));
const bearerToken = await sign({});
const boundToken = await sign({ cnf: { jkt: client.jkt } });

/** A service, and what one request of the variant sends: `headers(i)` for the i-th request. */
async function prepare(variant) {
  const service = createPlantService({
    store: memoryStore(),
    auth: jwtBearer({
      secret: SECRET,
      issuer: ISSUER,
      audience: AUDIENCE,
      dpop: dpopBinding(),
      ...(variant.cache ? {} : { cache: false }),
    }),
    publicUrl: PUBLIC_URL,
  });
  let headers;
  if (variant.dpop) {
    // Every proof is new (its own jti), as a client's are; signed now, outside the timing.
    const proofs = [];
    for (let i = 0; i < REQUESTS + 1; i += 1) {
      proofs.push(await client.proof({ url: HTU, token: boundToken }));
    }
    headers = (i) => ({
      authorization: `DPoP ${boundToken}`,
      dpop: proofs[i],
      'content-type': 'application/json',
    });
  } else {
    const fixed = { authorization: `Bearer ${bearerToken}`, 'content-type': 'application/json' };
    headers = () => fixed;
  }
  const request = (i, id) => ({
    method: 'POST',
    path: '/plants',
    headers: headers(i),
    body: `{"id": ${id}, "name": "Monstera", "tag": "aroid"}`,
  });
  const first = await service.handle(request(REQUESTS, 0));
  if (first.status !== 200) throw new Error(`${variant.name}: answered ${first.status}`);
  let next = 0;
  return async (count) => {
    for (const end = next + count; next < end; next += 1) {
      const answer = await service.handle(request(next, next + 1));
      if (answer.status !== 200) throw new Error(`${variant.name}: answered ${answer.status}`);
    }
  };
}

async function cpuOf(run) {
  const started = process.cpuUsage();
  await run();
  const { user, system } = process.cpuUsage(started);
  return (user + system) * 1000;
}

const variants = [
  { name: 'Bearer, token cache on', dpop: false, cache: true },
  { name: 'DPoP, token cache on', dpop: true, cache: true },
  { name: 'Bearer, token cache off', dpop: false, cache: false },
  { name: 'DPoP, token cache off', dpop: true, cache: false },
];

const results = variants.map(() => []);
const started = performance.now();
for (let r = -2; r < ROUNDS; r += 1) {
  const runs = [];
  for (const variant of variants) runs.push(await prepare(variant));
  const cpu = variants.map(() => 0);
  const batch = REQUESTS / BATCHES;
  for (let b = 0; b < BATCHES; b += 1) {
    for (let k = 0; k < variants.length; k += 1) {
      const v = (k + b) % variants.length;
      cpu[v] += await cpuOf(() => runs[v](batch));
    }
  }
  if (r >= 0) for (const [v] of variants.entries()) results[v].push(cpu[v] / REQUESTS);
  globalThis.gc?.();
}
const seconds = (performance.now() - started) / 1000;

// DPoP against Bearer with the same cache setting, per round, then the median and range of rounds.
const ratioOf = (dpop, bearer) => results[dpop].map((ns, i) => ns / results[bearer][i]);
const rows = variants.map((variant, v) => {
  const ratios = variant.dpop ? ratioOf(v, v - 1) : undefined;
  return [
    variant.name,
    format(median(results[v]) / 1000, 1),
    `${format(spread(results[v]) * 100)}%`,
    ratios === undefined
      ? ''
      : `${format(median(ratios), 2)}× (rounds ${format(Math.min(...ratios), 2)}–${format(Math.max(...ratios), 2)})`,
  ];
});
const figures = table(['request', 'CPU µs, median', 'spread', 'vs Bearer, same cache'], rows, [
  'l',
  'r',
  'r',
  'r',
]);
const date = runDate();
const machine = machineLine();
console.log(`\n${figures}\n\n${ROUNDS} rounds, ${machine}, ${Math.round(seconds)} s.`);

if (WRITE) {
  const page = join(ROOT, 'docs', 'reference', 'performance.md');
  const section = [
    '## DPoP',
    '',
    `_Written by \`pnpm --filter @plantstore/bench dpop --write\` on ${date} (${machine} at the end). \`pnpm bench\` keeps this section as it is._`,
    '',
    'What a DPoP-bound request (RFC 9449, [authentication.md](authentication.md#dpop-tokens-bound-to-the-clients-key-rfc-9449))',
    'costs against a plain Bearer request. `service.handle` runs on in-memory requests (no HTTP), one after the',
    'other, on `memoryStore()` and an HS256 `jwtBearer` with `dpop: dpopBinding()` (the default memory replay store, no',
    'nonces); each DPoP request carries a new ES256 proof, signed before the round. The proof check is what',
    'DPoP adds: its header and key, an ES256 signature verification, the claims, `ath` (a SHA-256 of the',
    `token) and the replay store. ${ROUNDS} rounds (after two for warm-up) of ${format(REQUESTS)} requests per variant, the four`,
    `taking turns ${BATCHES} times a round; CPU time (user + system) per request, the median of the rounds; the ratio is`,
    "each round's DPoP time over its Bearer time with the same cache setting. Over HTTP every request also pays",
    'the server and the framework, so the ratio there is smaller.',
    '',
    figures,
    '',
    '_spread_: (highest − lowest) ÷ median of the rounds.',
  ].join('\n');
  writeFileSync(page, withKeptSection(readFileSync(page, 'utf8'), section, 'dpop'));
  console.log(`Wrote the "DPoP" section of ${page}.`);
}

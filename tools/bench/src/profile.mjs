// `pnpm --filter @plantstore/bench profile [setup …]`: runs setups (default: the node entry and the
// Express 5 adapter) under load with `node --cpu-prof`, then prints where the server's CPU time goes:
// self time by function and by module, our bundles mapped back to their TypeScript sources, and the
// inclusive time of the route's main steps. Settings: PROFILE_SECONDS (default 10), BENCH_CONNECTIONS,
// BENCH_DPOP_RATE (proofs signed per second of load, for the DPoP setup).
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import console from 'node:console';
import { signToken } from './config.mjs';
import { dpopClient, dpopHeaders } from './lib/dpop-load.mjs';
import { load } from './lib/load.mjs';
import { startServer } from './lib/processes.mjs';
import { SETUPS } from './setups.mjs';

const seconds = Number(process.env.PROFILE_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const wanted =
  process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['node-plant', 'express5-plant'];
// Functions whose inclusive time shows the route's steps.
const STEPS = [
  'handle',
  'verify',
  'checkedHeader',
  'rememberWithin',
  'jwtVerify',
  'readBearerToken',
  'readPlantBody',
  'readBody',
  'readPlantJson',
  'validatePlant',
  'safeParse',
  'insertPlant',
  'writeAnswer',
  'plantRoute',
  'parserOnHeadersComplete',
  'parserOnIncoming',
];

/** A readable name for where a frame's code lives: our package (and source file), a dependency, Node. */
function moduleOf(url, functionName) {
  if (url === '') return `(V8/native) ${functionName || '(anonymous)'}`;
  if (url.startsWith('node:'))
    return `node:${
      url
        .slice(5)
        .replace(/^internal\//, '')
        .split('/')[0]
    }`;
  const path = url.startsWith('file:') ? fileURLToPath(url) : url;
  const dependency = /node_modules\/(?!\.pnpm)((?:@[^/]+\/)?[^/]+)/.exec(
    path
      .split('node_modules/.pnpm/')
      .pop()
      .replace(/^[^/]+\//, ''),
  );
  if (path.includes('node_modules') && dependency !== null) return dependency[1];
  const ours = /packages\/([^/]+)\//.exec(path);
  if (ours !== null) return `@plantstore/${ours[1]}`;
  return path.split('/').slice(-2).join('/');
}

const maps = new Map();
/** Our dist bundles come with source maps: name the TypeScript file and line instead. */
function original(url, line, column) {
  if (!url.includes('/packages/') || !url.endsWith('/dist/index.js')) return undefined;
  if (!maps.has(url)) {
    try {
      maps.set(url, new SourceMap(JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8'))));
    } catch {
      maps.set(url, undefined);
    }
  }
  const entry = maps.get(url)?.findEntry(line, column);
  if (entry === undefined || entry.originalSource === undefined) return undefined;
  return `${entry.originalSource.split('/').slice(-2).join('/')}:${entry.originalLine + 1}`;
}

function analyse(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map();
  const modules = new Map();
  const inclusive = new Map();
  let busy = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = nodes.get(profile.samples[i]);
    const dt = profile.timeDeltas[i] ?? 0;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idle += dt;
      continue;
    }
    busy += dt;
    const where =
      original(url, lineNumber, columnNumber) ??
      `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    const key = `${functionName || '(anonymous)'}  ${url === '' ? '' : where}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const module = moduleOf(url, functionName);
    modules.set(module, (modules.get(module) ?? 0) + dt);
    // Inclusive: each step counted once per sample, however deep it recurs.
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const name = nodes.get(id).callFrame.functionName;
      if (STEPS.includes(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
      }
    }
  }
  return { self, modules, inclusive, busy, idle };
}

/** The largest entries, as a share of busy time and as µs per request. */
function top(map, total, requests, count) {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(
      ([name, t]) =>
        `${((100 * t) / total).toFixed(1).padStart(5)}%  ${(t / requests).toFixed(2).padStart(6)} µs  ${name}`,
    )
    .join('\n');
}

const token = await signToken();
for (const id of wanted) {
  const setup = SETUPS.find((s) => s.id === id);
  if (setup === undefined) {
    console.error(`${id}: no such setup; see src/setups.mjs`);
    continue;
  }
  const dir = mkdtempSync(join(tmpdir(), `plantstore-profile-${id}-`));
  // A PostgreSQL setup gets a fresh table of its own, which it drops when it stops.
  const env =
    setup.storage === 'postgres'
      ? { BENCH_TABLE: `bench_plants_profile_${process.pid}_${id.replace(/\W/g, '_')}` }
      : {};
  const server = await startServer(setup, {
    env,
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir],
  });
  // The DPoP setup needs a proof of its own per request, signed before the load as in `pnpm bench`.
  const headers = setup.dpop
    ? await dpopHeaders(await dpopClient(), seconds, Number(process.env.BENCH_DPOP_RATE ?? 12_000))
    : undefined;
  const result = await load({
    url: server.url,
    seconds,
    connections,
    token: () => token,
    ...(headers === undefined ? {} : { headers }),
  });
  await server.stop();
  const file = join(
    dir,
    readdirSync(dir).find((name) => name.endsWith('.cpuprofile')),
  );
  const { self, modules, inclusive, busy, idle } = analyse(file);
  const perRequest = (busy / result.answered).toFixed(1);
  const idleShare = ((100 * idle) / (busy + idle)).toFixed(0);
  console.log(
    `\n=== ${id}: ${Math.round(result.perSecond)} req/s for ${seconds} s, ${result.non2xx} non-2xx; ` +
      `main thread busy ${perRequest} µs per request, idle ${idleShare}%\n${file}`,
  );
  console.log(
    'Sampled wall time: `writev` (the response syscall) also holds the time the server is descheduled ' +
      'when it wakes the load generator on a shared core; strace puts its own cost near 7 µs a call.',
  );
  console.log(`\nself time by function\n${top(self, busy, result.answered, 30)}`);
  console.log(`\nself time by module\n${top(modules, busy, result.answered, 20)}`);
  console.log(
    `\ninclusive time of the route's steps\n${top(inclusive, busy, result.answered, STEPS.length)}`,
  );
}

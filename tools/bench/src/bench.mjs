// `pnpm bench`: start every setup's server, check they all answer alike, load them in interleaved
// rounds, and write docs/reference/performance.md and docs/reference/performance.svg. Settings are in the environment,
// see the Method section of docs/reference/performance.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import console from 'node:console';
import pg from 'pg';
import {
  AUDIENCE,
  DEFAULT_DATABASE_URL,
  ISSUER,
  OPAQUE_TOKENS,
  POOL_SIZE,
  signToken,
} from './config.mjs';
import { renderChart } from './lib/chart.mjs';
import { checkAnswers } from './lib/checks.mjs';
import { coldStart } from './lib/cold-start.mjs';
import { firstConsoleLines } from './lib/first-report.mjs';
import { firstRequests } from './lib/first-requests.mjs';
import { load } from './lib/load.mjs';
import { memoryCheck } from './lib/memory-check.mjs';
import { cpuMicros, machineMicros, machineSpan, memory, startServer } from './lib/processes.mjs';
import { withKeptSections } from './lib/kept-section.mjs';
import { dpopClient, dpopHeaders } from './lib/dpop-load.mjs';
import {
  consoleRatios,
  consoleTable,
  consoleTargets,
  markdown,
  ratios,
  targetRows,
} from './lib/report.mjs';
import { median, spread } from './lib/stats.mjs';
import { COMPARISONS, ROUTE_REFERENCE, SETUPS, TARGETS } from './setups.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const BENCH = join(import.meta.dirname, '..');

function setting(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new TypeError(`${name} must be a number ≥ 0; got ${raw}`);
  return value;
}

const options = {
  rounds: setting('BENCH_ROUNDS', 5),
  seconds: setting('BENCH_SECONDS', 3),
  warmup: setting('BENCH_WARMUP', 2),
  connections: setting('BENCH_CONNECTIONS', 50),
  memory: process.env.BENCH_MEMORY === '1' || process.argv.includes('--memory'),
  memorySeconds: setting('BENCH_MEMORY_SECONDS', 60),
  // Proofs signed before each round of the DPoP setup, per second of the round: above what one core
  // verifies, so a round never runs out (it would answer 401 to the replays).
  dpopRate: setting('BENCH_DPOP_RATE', 12_000),
  coldRuns: setting('BENCH_COLD_RUNS', 7),
  firstRuns: setting('BENCH_FIRST_RUNS', 7),
  only: process.env.BENCH_ONLY?.split(',').filter(Boolean),
  databaseUrl: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
  poolSize: POOL_SIZE,
};
const docsDir =
  process.env.BENCH_OUT ??
  (options.only === undefined ? join(ROOT, 'docs', 'reference') : undefined);

const GROUPS = {
  express4: 'express',
  express5: 'express',
  koa2: 'koa',
  koa3: 'koa',
  fastify: 'fastify',
  node: 'node',
  pglite: 'pglite',
  pg: 'postgres',
  mysql: 'mysql',
  dynamodb: 'dynamodb',
  redis: 'redis',
  bun: 'bun',
  deno: 'deno',
};
const groupOf = (id) => GROUPS[id.split('-')[0]] ?? 'other';
const log = (line) => console.log(line);

function version(name) {
  return JSON.parse(readFileSync(join(BENCH, 'node_modules', name, 'package.json'), 'utf8'))
    .version;
}

function ourVersion(name) {
  return JSON.parse(readFileSync(join(ROOT, 'packages', name, 'package.json'), 'utf8')).version;
}

function git(...args) {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

/** A client of the PostgreSQL setups' server, for the runner's own statements. */
function databaseClient() {
  return new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: 3_000 });
}

/** Connects once to tell whether the PostgreSQL setups can run; answers the server version or why not. */
async function probePostgres() {
  const client = databaseClient();
  try {
    await client.connect();
    const { rows } = await client.query('SHOW server_version');
    return { ok: true, version: rows[0].server_version };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Before a round of a PostgreSQL setup: the server writes out the pages earlier rounds left dirty
 * (`CHECKPOINT`), then the machine goes quiet. Otherwise a setup measured right after another pays
 * for its neighbour's inserts (the server flushing them on the cores the setup shares), and which
 * setup that is changes with the order of the round.
 */
async function settleDatabase() {
  const client = databaseClient();
  try {
    await client.connect();
    await client.query('CHECKPOINT');
  } catch {
    // Not a superuser (nor pg_checkpoint): waiting for a quiet machine does most of it.
  } finally {
    await client.end().catch(() => undefined);
  }
  await untilQuiet();
}

/** Waits (at most `maxMs`) until the machine's busy share over 100 ms falls under `share`. */
async function untilQuiet(share = 0.1, maxMs = 5_000) {
  const started = performance.now();
  let before = machineMicros();
  while (performance.now() - started < maxMs) {
    await sleep(100);
    const now = machineMicros();
    const { busy, capacity } = machineSpan(before, now);
    before = now;
    if (capacity > 0 && busy / capacity < share) return;
  }
}

async function dropTables(tables) {
  if (tables.length === 0) return;
  const client = databaseClient();
  try {
    await client.connect();
    for (const table of tables) await client.query(`DROP TABLE IF EXISTS "${table}"`);
  } catch (error) {
    console.error(`could not drop ${tables.join(', ')}: ${String(error)}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main() {
  const startedAt = Date.now();
  const loadBefore = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  for (const name of ['core', 'dynamodb', 'express', 'koa', 'mysql', 'postgres', 'redis']) {
    if (!existsSync(join(ROOT, 'packages', name, 'dist', 'index.js'))) {
      throw new Error(
        `packages/${name} is not built: run \`pnpm build\` first (\`pnpm bench\` at the root does).`,
      );
    }
  }

  let setups = SETUPS.filter((s) => options.only === undefined || options.only.includes(s.id));
  const skipped = [];
  let postgresVersion = 'not used';
  if (setups.some((s) => s.storage === 'postgres')) {
    const probe = await probePostgres();
    if (probe.ok)
      postgresVersion = `${probe.version} at ${options.databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`;
    else {
      postgresVersion = `unreachable (${probe.reason})`;
      skipped.push(`the PostgreSQL setups (${options.databaseUrl} unreachable: ${probe.reason})`);
      setups = setups.filter((s) => s.storage !== 'postgres');
    }
  }
  const runId = `${process.pid}_${startedAt.toString(36)}`;
  const tables = [];
  for (const setup of setups) {
    if (setup.storage !== 'postgres' && setup.storage !== 'mysql' && setup.storage !== 'dynamodb')
      continue;
    const table = `bench_plants_${runId}_${setup.id.replace(/\W/g, '_')}`;
    // A MySQL setup's server drops its own table when it stops; a DynamoDB setup's emulator ends with it.
    if (setup.storage === 'postgres') tables.push(table);
    setup.env = { ...setup.env, BENCH_TABLE: table, DATABASE_URL: options.databaseUrl };
  }

  log(
    `Plantstore bench: ${setups.length} setups, ${options.rounds} rounds × ${options.seconds} s, ${options.connections} connections`,
  );
  const servers = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop()));
  process.once('SIGINT', () => {
    void stopAll()
      .then(() => dropTables(tables))
      .finally(() => process.exit(130));
  });

  let results;
  try {
    for (const setup of setups) servers.push(await startServer(setup));
    const byId = new Map(setups.map((s) => [s.id, s]));
    const jwts = {
      valid: await signToken(),
      otherIssuer: await signToken({ issuer: `${ISSUER}other` }),
      otherAudience: await signToken({ audience: `${AUDIENCE}/other` }),
    };
    // The introspection setup is sent opaque tokens, every other one JWTs.
    const tokensOf = (id) => (byId.get(id).opaque ? OPAQUE_TOKENS : jwts);
    const checkable = servers.filter((s) => !byId.get(s.id).dpop);
    let checked = 0;
    for (const tokens of [jwts, OPAQUE_TOKENS]) {
      const group = checkable.filter((s) => tokensOf(s.id) === tokens);
      if (group.length === 0) continue;
      const kinds = group.map((s) => ({ ...s, kind: byId.get(s.id).kind }));
      checked += await checkAnswers(kinds, tokens);
    }
    log(`Answers checked: ${checked}, all alike.`);

    const dpop = setups.some((s) => s.dpop) ? await dpopClient() : undefined;
    const run = async (server, seconds) =>
      load({
        url: server.url,
        seconds,
        connections: options.connections,
        token: () => tokensOf(server.id).valid,
        headers: byId.get(server.id).dpop
          ? await dpopHeaders(dpop, seconds, options.dpopRate)
          : undefined,
      });
    if (options.warmup > 0) {
      for (const server of servers) await run(server, options.warmup);
      log(`Warmed up: ${options.warmup} s each.`);
    }

    const rounds = new Map(servers.map((s) => [s.id, []]));
    for (let round = 1; round <= options.rounds; round += 1) {
      const line = [];
      // Odd rounds run the list forwards, even rounds backwards: a setup is not always measured right
      // after the same neighbour (the hand-written baseline is listed just before ours), whose load may
      // leave work behind on a shared core, such as PostgreSQL flushing the inserts it just took.
      const order = round % 2 === 1 ? servers : [...servers].reverse();
      for (const server of order) {
        if (byId.get(server.id).storage === 'postgres') await settleDatabase();
        else if (['mysql', 'dynamodb', 'redis'].includes(byId.get(server.id).storage))
          await untilQuiet();
        else await sleep(200);
        // Signed before the round's clocks start: a client's proofs are not the server's work.
        const headers = byId.get(server.id).dpop
          ? await dpopHeaders(dpop, options.seconds, options.dpopRate)
          : undefined;
        const before = cpuMicros(server.pid);
        const machineBefore = machineMicros();
        const selfBefore = process.cpuUsage();
        const result = await load({
          url: server.url,
          seconds: options.seconds,
          connections: options.connections,
          token: () => tokensOf(server.id).valid,
          headers,
        });
        const serverCpu = cpuMicros(server.pid) - before;
        const self = process.cpuUsage(selfBefore);
        const { busy, capacity, steal: stolen } = machineSpan(machineBefore, machineMicros());
        // What neither the server nor the load generator used: other work on the machine.
        const other = Math.max(0, busy - serverCpu - self.user - self.system) / capacity;
        const steal = stolen / capacity;
        const cpu = serverCpu / result.answered;
        rounds.get(server.id).push({ ...result, cpu, other, steal });
        const warning = result.non2xx > 0 ? ` NON-2XX ${result.non2xx}` : '';
        line.push(
          `${server.id} ${Math.round(result.perSecond)}/s ${cpu.toFixed(0)}µs other ${(other * 100).toFixed(0)}%${warning}`,
        );
      }
      log(`round ${round}/${options.rounds}: ${line.join(', ')}`);
    }

    results = servers.map((server) => {
      const setup = byId.get(server.id);
      const list = rounds.get(server.id);
      const perSecond = list.map((r) => r.perSecond);
      const cpu = list.map((r) => r.cpu);
      return {
        id: setup.id,
        label: setup.label,
        kind: setup.kind,
        group: groupOf(setup.id),
        perSecond: median(perSecond),
        perSecondRange: [Math.min(...perSecond), Math.max(...perSecond)],
        p50: median(list.map((r) => r.p50)),
        p99: median(list.map((r) => r.p99)),
        cpu: median(cpu),
        cpuRange: [Math.min(...cpu), Math.max(...cpu)],
        spread: spread(perSecond),
        cpuSpread: spread(cpu),
        other: median(list.map((r) => r.other)),
        steal: median(list.map((r) => r.steal)),
        peak: memory(server.pid).peak,
        non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
        errors: list.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
        rounds: list.map((r) => ({ perSecond: r.perSecond, cpu: r.cpu })),
      };
    });
  } finally {
    await stopAll();
    await dropTables(tables);
  }

  const memoryResults = [];
  if (options.memory) {
    // Every adapter, on each supported major of its framework.
    for (const id of [
      'node-plant',
      'express5-plant',
      'express4-plant',
      'koa3-plant',
      'koa2-plant',
      'fastify-plant',
    ]) {
      const setup = setups.find((s) => s.id === id);
      if (setup === undefined) continue;
      log(`Memory check: ${id}, ${options.memorySeconds} s…`);
      memoryResults.push(
        await memoryCheck(setup, {
          seconds: options.memorySeconds,
          connections: options.connections,
        }),
      );
    }
  }

  let cold = [];
  if (options.coldRuns > 0) {
    log(`Cold start: ${options.coldRuns} runs each…`);
    cold = coldStart(options.coldRuns);
  }

  // Fresh servers, after the rounds and with nothing else running: the first 100 requests of each.
  let first = [];
  if (options.firstRuns > 0) {
    log(`First requests: ${options.firstRuns} fresh servers each…`);
    first = await firstRequests(setups, options.firstRuns);
  }

  const ratioList = ratios(results, COMPARISONS);
  const targets = targetRows(results, TARGETS, ROUTE_REFERENCE);
  log('');
  log(consoleTable(results));
  log('');
  log(consoleRatios(ratioList));
  log('');
  log(consoleTargets(targets));
  for (const m of memoryResults) {
    log(
      `memory ${m.id}: RSS ${(m.rssEarly / 1e6).toFixed(1)} MB at ${m.early} s, ${(m.rssEnd / 1e6).toFixed(1)} MB at ${m.seconds} s (${(m.growth * 100).toFixed(1)}%)`,
    );
  }
  for (const c of cold)
    log(
      `cold start ${c.name}: ${c.work.toFixed(1)} ms import + create, ${c.wall.toFixed(0)} ms process`,
    );
  for (const line of firstConsoleLines(first)) log(line);

  const durationS = (Date.now() - startedAt) / 1000;
  const commit = git('rev-parse', '--short', 'HEAD');
  const dirty =
    git('status', '--porcelain', '--', 'packages') === '' ? '' : ' (with uncommitted changes)';
  const machine = {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown CPU',
    memoryGB: totalmem() / 1e9,
    os: `${type()} ${release()}`,
    node: process.version,
    loadBefore,
    loadAfter: loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    commit: `${commit || 'unknown commit'}${dirty}`,
    ours: ['core', 'express', 'koa', 'postgres']
      .map((n) => `@plantstore/${n} ${ourVersion(n)}`)
      .join(', '),
    frameworks: [
      ['express4', 'Express'],
      ['express5', 'Express'],
      ['koa2', 'Koa'],
      ['koa3', 'Koa'],
      ['@koa/router', '@koa/router'],
      ['@koa/bodyparser', '@koa/bodyparser'],
      ['fastify', 'Fastify'],
      ['@fastify/jwt', '@fastify/jwt'],
      ['jose', 'jose'],
      ['valibot', 'valibot'],
      ['pg', 'pg'],
      ['@electric-sql/pglite', 'PGlite'],
      ['autocannon', 'autocannon'],
    ]
      .map(([dir, name]) => `${name} ${version(dir)}`)
      .join(', '),
    postgres: postgresVersion,
  };
  const date = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  if (docsDir !== undefined) {
    const run = {
      results,
      ratioList,
      targets,
      memoryResults,
      cold,
      first,
      machine,
      options,
      skipped,
      date,
      durationS,
    };
    mkdirSync(docsDir, { recursive: true });
    const page = join(docsDir, 'performance.md');
    const old = existsSync(page) ? readFileSync(page, 'utf8') : '';
    writeFileSync(page, withKeptSections(markdown(run), old));
    const subtitle = `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}, ${options.connections} connections, ${options.rounds} rounds × ${options.seconds} s, ${date}`;
    writeFileSync(join(docsDir, 'performance.svg'), renderChart(results, { subtitle }));
    log(
      `\nWrote ${join(docsDir, 'performance.md')} and performance.svg (${Math.round(durationS)} s).`,
    );
  } else {
    log(
      `\nBENCH_ONLY is set: docs not written (set BENCH_OUT to a directory to write them). ${Math.round(durationS)} s.`,
    );
  }
  const failed = results.filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failed.length > 0) {
    console.error(
      `\nNon-2xx answers or errors under load: ${failed.map((r) => `${r.id} (${r.non2xx} non-2xx, ${r.errors} errors)`).join(', ')}.`,
    );
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

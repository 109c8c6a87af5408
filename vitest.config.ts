import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { CASE_TAGS } from './tools/http-suite/src/contract/case-tags.ts';

const source = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * Prints why a suite is left out, once per run (vitest reads this file once per project), and only
 * when the run includes the `full` tier, where those suites are: `pnpm test` prints nothing of it.
 */
function noteSkipped(message: string): void {
  const argv = process.argv.join(' ');
  const fastOnly = /--project[= ]fast\b/u.test(argv) && !/--project[= ]full\b/u.test(argv);
  const printed = globalThis as { plantstoreSkipNotes?: Set<string> };
  printed.plantstoreSkipNotes ??= new Set();
  if (fastOnly || printed.plantstoreSkipNotes.has(message)) return;
  printed.plantstoreSkipNotes.add(message);
  console.warn(message);
}

// The custom-storage page's Redis test is the very file a user copies, so it connects to
// 127.0.0.1:6379 instead of skipping; here it is left out, with the reason printed, as every other
// suite that needs a server is when its variable is not set (CI sets them all).
const needsRedis = ['examples/custom-storage/src/redis-store.test.ts'];
const skippedForRedis =
  process.env.REDIS_URL === undefined && process.env.PLANTSTORE_REQUIRE_SERVICES !== '1'
    ? needsRedis
    : [];
if (skippedForRedis.length > 0) {
  noteSkipped(
    `Skipping ${needsRedis.join(', ')}: REDIS_URL is not set (for example REDIS_URL=redis://127.0.0.1:6379).`,
  );
}

// No MongoDB server runs here or in CI: the custom-storage page's MongoDB store is run on a real
// server only when MONGODB_URL names one (its logic runs on a stand-in in mongo-store-logic.test.ts).
const needsMongo = ['examples/custom-storage/src/mongo-store.test.ts'];
const skippedForMongo = process.env.MONGODB_URL === undefined ? needsMongo : [];
if (skippedForMongo.length > 0) {
  noteSkipped(
    `Skipping ${needsMongo.join(', ')}: MONGODB_URL is not set (no MongoDB server here).`,
  );
}

/**
 * The fast tier: every unit test, the whole contract once on each adapter's newest major (and on
 * the node:http and fetch entries), what a second mounting changes, the default embedded store, and
 * the two example apps. What it leaves to the full tier runs the same code on another major, runtime,
 * server or browser, or takes minutes (fuzzing, faults, soak).
 */
const FAST = [
  'packages/core/src/**/*.test.ts',
  'tools/http-suite/test/**/*.test.ts',
  'tools/docs-check/test/readme-blocks.test.ts',
  'packages/express/test/contract-express5.test.ts',
  'packages/express/test/guard-express5.test.ts',
  'packages/express/test/host-app.test.ts',
  'packages/express/test/request-body.test.ts',
  'packages/koa/test/contract-koa3.test.ts',
  'packages/koa/test/guard-koa3.test.ts',
  'packages/koa/test/host-app.test.ts',
  'packages/fastify/test/contract-fastify5.test.ts',
  'packages/fastify/test/guard-fastify5.test.ts',
  'packages/fastify/test/host-app.test.ts',
  'examples/express/**/*.test.ts',
  'examples/koa/**/*.test.ts',
  // The MySQL store's server-side time limit and kill retries, on stand-ins: no server.
  'packages/mysql/test/server-deadline.test.ts',
  'packages/mysql/test/kill-statement.test.ts',
  // The Redis store's slot refresh on a node-redis cluster, and its reading of persistence, on stand-ins.
  'packages/redis/test/slot-refresh.test.ts',
  'packages/redis/test/persistence.test.ts',
  // The custom-storage example's app runs on Redis: it is in the full tier, with the server.
];

/**
 * The load tier: files that put a host or a server under load of their own (thousands of concurrent
 * creates, a thousand idle sockets, backends and brokers killed mid-load) and check what it answered
 * within time bounds. Beside three other busy files on CI's 2 cores they measured the machine, not
 * the code (a thousand connections of which only 148 were ever open at once; a 3 s load that ran
 * past 20 s), so they run after the rest, one file at a time.
 */
const LOAD = [
  'tools/reliability/test/faults/**/*.test.ts',
  'packages/postgres/test/two-servers.test.ts',
];

/**
 * The hostile catalog, the token attacks and the fuzzers bound the server's CPU per request with
 * `process.cpuUsage()`, which counts the whole process: its garbage collector and whatever an
 * earlier file left running. They keep a process of their own per file (isolated, as vitest's
 * default) so they measure the route, not the heap of the files that ran before them in a worker.
 */
const HOSTILE = ['tools/reliability/test/hostile/**/*.test.ts'];

// Tests run against the sources, so `pnpm test` needs no build first; CI also checks the built packages.
export default defineConfig({
  resolve: {
    alias: [
      {
        find: /^@plantstore\/core\/testing$/,
        replacement: source('packages/core/src/testing/index.ts'),
      },
      {
        find: /^@plantstore\/core\/(adapter|events|openapi|providers|store-kit)$/,
        replacement: source('packages/core/src/entries/$1.ts'),
      },
      { find: /^@plantstore\/core$/, replacement: source('packages/core/src/index.ts') },
      { find: /^@plantstore\/amqp$/, replacement: source('packages/amqp/src/index.ts') },
      {
        find: /^@plantstore\/aws-lambda$/,
        replacement: source('packages/aws-lambda/src/index.ts'),
      },
      {
        find: /^@plantstore\/cloudflare$/,
        replacement: source('packages/cloudflare/src/index.ts'),
      },
      { find: /^@plantstore\/dynamodb$/, replacement: source('packages/dynamodb/src/index.ts') },
      { find: /^@plantstore\/express$/, replacement: source('packages/express/src/index.ts') },
      { find: /^@plantstore\/fastify$/, replacement: source('packages/fastify/src/index.ts') },
      { find: /^@plantstore\/koa$/, replacement: source('packages/koa/src/index.ts') },
      { find: /^@plantstore\/nats$/, replacement: source('packages/nats/src/index.ts') },
      { find: /^@plantstore\/mysql$/, replacement: source('packages/mysql/src/index.ts') },
      { find: /^@plantstore\/redis$/, replacement: source('packages/redis/src/index.ts') },
      { find: /^@plantstore\/postgres$/, replacement: source('packages/postgres/src/index.ts') },
    ],
  },
  test: {
    // A line of dots and the summary: a green run fits one screen; a red one lists each failure,
    // its cause and where, before the summary.
    reporters: ['dot'],
    exclude: ['**/node_modules/**', '**/dist/**', ...skippedForRedis, ...skippedForMongo],
    // Most files of the full tier wait: on a server they started, a child process (next build, Bun,
    // Deno, workerd, a second Node), a database. Vitest's default of one worker per core but one
    // left 1 worker on CI's 2 cores, busy about half the time (test:all took 17 min);
    // 4 workers use both cores (5 min, 174 %). More cores, more workers, as by default.
    maxWorkers: Math.max(4, availableParallelism()),
    // A worker runs its files one after another in one module registry instead of a fresh one per
    // file: the frameworks, drivers and the core are imported once per worker, not once per file
    // (import time 453 s → 121 s; fast and full tiers 11m11s → 8m50s on CI's 2 cores). It holds
    // because no test file or shared helper keeps state at module level: servers, pools and spies
    // are made and closed in each file's hooks, and fake timers are restored where they are set.
    // The one exception is HOSTILE below, which measures its own process's CPU.
    isolate: false,
    // oidc-provider, the certified provider tools/interop runs in-process, warns on start about
    // its development defaults (the in-memory adapter, devInteractions) and Node 20: true of a test
    // provider, and nothing a reader of the run can act on.
    onConsoleLog: (log) => !log.includes('oidc-provider WARNING: '),
    testTimeout: 20_000,
    hookTimeout: 30_000,
    typecheck: { enabled: false },
    // Every tag a contract case or a hostile case carries (tools/http-suite/src/contract/coverage.ts),
    // so that `--tags-filter=tls` runs the certificate-bound cases of every host, say.
    tags: Object.entries(CASE_TAGS).map(([name, description]) => ({ name, description })),
    // Two tiers (CONTRIBUTING.md): `pnpm test` runs `fast`, the contributor's loop of a few
    // minutes; `pnpm test:all` runs every project, as CI does (`hostile` and `load` belong to the
    // full tier, split off for how they run).
    projects: [
      { extends: true, test: { name: 'fast', include: FAST } },
      {
        extends: true,
        test: {
          name: 'load',
          include: LOAD,
          exclude: ['**/node_modules/**', '**/dist/**'],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      { extends: true, test: { name: 'hostile', include: HOSTILE, isolate: true } },
      {
        extends: true,
        test: {
          name: 'full',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'tools/*/src/**/*.test.ts',
            'tools/*/test/**/*.test.ts',
            'examples/*/**/*.test.ts',
          ],
          exclude: [
            '**/node_modules/**',
            '**/dist/**',
            ...FAST,
            ...LOAD,
            ...HOSTILE,
            ...skippedForRedis,
            ...skippedForMongo,
          ],
        },
      },
    ],
  },
});

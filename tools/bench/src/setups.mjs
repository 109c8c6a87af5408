// What is measured, and what is compared with what. `kind`: `echo` servers only parse and answer
// (they skip the auth and validation checks), `baseline` servers do the whole job without Plantstore,
// `ours` is a Plantstore entry. `storage` marks the setups that need a database.

/** @typedef {{ id: string, label: string, kind: 'echo' | 'baseline' | 'ours', file?: string, env?: Record<string, string>, storage?: 'pglite' | 'postgres' | 'mysql' | 'dynamodb' | 'redis', dpop?: boolean, opaque?: boolean, runtime?: 'bun' | 'deno' }} Setup */

/**
 * Each setup's kind and label, and where it differs from the rest, by id (the id also names its
 * server file, unless `file` says otherwise).
 *
 * @type {Record<string, [Setup['kind'], string, Pick<Setup, 'file' | 'env' | 'storage' | 'dpop' | 'opaque' | 'runtime'>?]>}
 */
const TABLE = {
  'express4-echo': ['echo', 'Express 4 + express.json, echo'],
  'express5-echo': ['echo', 'Express 5 + express.json, echo'],
  'express5-hand': ['baseline', 'Express 5 + express.json + jose + checks'],
  'express4-plant': ['ours', 'plantRouter on Express 4'],
  'express5-plant': ['ours', 'plantRouter on Express 5'],
  'koa2-echo': ['echo', 'Koa 2 + bodyparser, echo'],
  'koa3-echo': ['echo', 'Koa 3 + bodyparser, echo'],
  'koa3-hand': ['baseline', 'Koa 3 + router + bodyparser + jose + checks'],
  'koa2-plant': ['ours', 'plantRoutes on Koa 2'],
  'koa3-plant': ['ours', 'plantRoutes on Koa 3'],
  fastify: ['baseline', 'Fastify 5 + JSON schema + @fastify/jwt'],
  'fastify-plant': ['ours', 'plantPlugin on Fastify 5'],
  'node-echo': ['echo', 'node:http echo'],
  'node-hand': ['baseline', 'node:http + jose + valibot'],
  'node-plant': ['ours', 'createNodeHandler on node:http'],
  'node-plant-nocache': [
    'ours',
    'createNodeHandler, token cache off',
    { file: 'node-plant', env: { BENCH_TOKEN_CACHE: 'off' } },
  ],
  'node-plant-mtls': [
    'ours',
    'createNodeHandler, mTLS on, a request without a certificate',
    { file: 'node-plant', env: { BENCH_MTLS: 'on' } },
  ],
  'node-plant-dpop': [
    'ours',
    'createNodeHandler, DPoP-bound token, a new ES256 proof each',
    { dpop: true },
  ],
  // `opaque`: the setup is sent OPAQUE_TOKENS (config.mjs) instead of JWTs.
  'node-plant-introspection': [
    'ours',
    'createNodeHandler, opaque token introspected, answer cached',
    { opaque: true },
  ],
  'pglite-hand': ['baseline', 'node entry + hand-written PGlite store', { storage: 'pglite' }],
  'pglite-plant': ['ours', 'node entry + postgresStore on PGlite', { storage: 'pglite' }],
  'pg-hand': ['baseline', 'node entry + hand-written pg store', { storage: 'postgres' }],
  'pg-plant': ['ours', 'node entry + postgresStore on pg', { storage: 'postgres' }],
  'mysql-hand': [
    'baseline',
    'Express 5 + jose + checks + hand-written mysql2 insert',
    { storage: 'mysql' },
  ],
  'mysql-plant': ['ours', 'plantRouter on Express 5 + mysqlStore on mysql2', { storage: 'mysql' }],
  'dynamodb-hand': [
    'baseline',
    'Express 5 + jose + checks + hand-written conditional PutItem (AWS SDK v3, dynalite)',
    { storage: 'dynamodb' },
  ],
  'dynamodb-plant': [
    'ours',
    'plantRouter on Express 5 + dynamoDbStore (AWS SDK v3, dynalite)',
    { storage: 'dynamodb' },
  ],
  'redis-hand': [
    'baseline',
    'Express 5 + jose + checks + hand-written node-redis Lua insert',
    { storage: 'redis' },
  ],
  'redis-plant': [
    'ours',
    'plantRouter on Express 5 + redisStore on node-redis',
    { storage: 'redis' },
  ],
  // `runtime`: served by Bun.serve or Deno.serve, run by the binary of the `bun` or `deno` npm package.
  'bun-echo': ['echo', 'Bun.serve + request.json(), echo', { runtime: 'bun' }],
  'bun-hono': ['baseline', 'Hono 4 + hono/jwt + valibot-validator on Bun', { runtime: 'bun' }],
  'bun-plant': ['ours', 'fetch entry on Bun.serve', { runtime: 'bun' }],
  'deno-echo': ['echo', 'Deno.serve + request.json(), echo', { runtime: 'deno' }],
  'deno-hono': ['baseline', 'Hono 4 + hono/jwt + valibot-validator on Deno', { runtime: 'deno' }],
  'deno-plant': ['ours', 'fetch entry on Deno.serve', { runtime: 'deno' }],
};

/** @type {Setup[]} */
export const SETUPS = Object.entries(TABLE).map(([id, [kind, label, extra]]) => ({
  id,
  kind,
  label,
  ...extra,
}));

/**
 * The targets of issue 17, each judged on server CPU per request within one run:
 *
 * - `faster`: the baseline's CPU ÷ ours, at least `target`;
 * - `route`: the route's own cost on a framework, (ours − that framework's echo), over its cost on
 *   node:http, (`node-plant` − `node-echo`), at most `target`;
 * - `costlier`: ours ÷ the baseline's CPU, at most `target`.
 *
 * @type {({ kind: 'faster' | 'costlier', ours: string, base: string, target: number, goal: string } | { kind: 'route', ours: string, echo: string, target: number, goal: string })[]}
 */
export const TARGETS = [
  {
    kind: 'faster',
    ours: 'bun-plant',
    base: 'bun-hono',
    target: 1,
    goal: 'fetch entry on Bun ≥ 1.0× Hono + hono/jwt + valibot',
  },
  {
    kind: 'faster',
    ours: 'deno-plant',
    base: 'deno-hono',
    target: 1,
    goal: 'fetch entry on Deno ≥ 1.0× Hono + hono/jwt + valibot',
  },
  {
    kind: 'faster',
    ours: 'node-plant',
    base: 'fastify',
    target: 1.1,
    goal: 'node entry ≥ 1.1× Fastify + @fastify/jwt + schema',
  },
  {
    kind: 'faster',
    ours: 'fastify-plant',
    base: 'fastify',
    target: 1,
    goal: '@plantstore/fastify ≥ 1.0× that same Fastify',
  },
  {
    kind: 'faster',
    ours: 'node-plant-nocache',
    base: 'node-hand',
    target: 1,
    goal: 'node entry, token cache off ≥ 1.0× node:http + jose + valibot',
  },
  {
    kind: 'route',
    ours: 'koa3-plant',
    echo: 'koa3-echo',
    target: 1.2,
    goal: 'route cost on Koa 3 ≤ 1.2× on node:http',
  },
  {
    kind: 'route',
    ours: 'express5-plant',
    echo: 'express5-echo',
    target: 1.2,
    goal: 'route cost on Express 5 ≤ 1.2× on node:http',
  },
  {
    kind: 'route',
    ours: 'express4-plant',
    echo: 'express4-echo',
    target: 1.2,
    goal: 'route cost on Express 4 ≤ 1.2× on node:http',
  },
  {
    kind: 'faster',
    ours: 'pg-plant',
    base: 'pg-hand',
    target: 0.95,
    goal: 'PostgreSQL store ≥ 0.95× a hand-written pg insert',
  },
  {
    kind: 'faster',
    ours: 'mysql-plant',
    base: 'mysql-hand',
    target: 0.95,
    goal: 'MySQL store on Express 5 ≥ 0.95× a hand-written Express 5 + mysql2 insert',
  },
  {
    kind: 'faster',
    ours: 'dynamodb-plant',
    base: 'dynamodb-hand',
    target: 0.95,
    goal: 'DynamoDB store on Express 5 ≥ 0.95× a hand-written Express 5 conditional PutItem',
  },
  {
    kind: 'faster',
    ours: 'redis-plant',
    base: 'redis-hand',
    target: 0.95,
    goal: 'Redis store on Express 5 ≥ 0.95× a hand-written Express 5 + node-redis Lua insert',
  },
  {
    kind: 'costlier',
    ours: 'node-plant-mtls',
    base: 'node-plant',
    target: 1.05,
    goal: 'mTLS on: a request without a certificate ≤ 1.05× without mTLS',
  },
  {
    kind: 'costlier',
    ours: 'node-plant-dpop',
    base: 'node-plant',
    target: 1.5,
    goal: 'DPoP-bound request ≤ 1.5× a bearer request',
  },
  {
    kind: 'costlier',
    ours: 'node-plant-introspection',
    base: 'node-plant',
    target: 1,
    goal: 'cached introspected opaque token ≤ 1.0× a cached JWT',
  },
];

/** Where a route's own cost is measured against: the node entry less the bare node:http echo. */
export const ROUTE_REFERENCE = { ours: 'node-plant', echo: 'node-echo' };

/**
 * Ratios reported for information, ours over a baseline of the same run (baseline CPU ÷ ours).
 *
 * @type {{ ours: string, base: string }[]}
 */
export const COMPARISONS = [
  { ours: 'express5-plant', base: 'express5-hand' },
  { ours: 'express5-plant', base: 'express5-echo' },
  { ours: 'express4-plant', base: 'express4-echo' },
  { ours: 'koa3-plant', base: 'koa3-echo' },
  { ours: 'koa3-plant', base: 'koa3-hand' },
  { ours: 'koa2-plant', base: 'koa2-echo' },
  { ours: 'node-plant', base: 'fastify' },
  { ours: 'fastify-plant', base: 'fastify' },
  { ours: 'node-plant', base: 'node-hand' },
  { ours: 'node-plant', base: 'node-echo' },
  { ours: 'node-plant-nocache', base: 'node-hand' },
  { ours: 'node-plant-nocache', base: 'node-plant' },
  { ours: 'node-plant-dpop', base: 'node-plant' },
  { ours: 'node-plant-introspection', base: 'node-plant' },
  { ours: 'pg-plant', base: 'pg-hand' },
  { ours: 'mysql-plant', base: 'mysql-hand' },
  { ours: 'dynamodb-plant', base: 'dynamodb-hand' },
  { ours: 'redis-plant', base: 'redis-hand' },
  { ours: 'pglite-plant', base: 'pglite-hand' },
  { ours: 'bun-plant', base: 'bun-hono' },
  { ours: 'bun-plant', base: 'bun-echo' },
  { ours: 'deno-plant', base: 'deno-hono' },
  { ours: 'deno-plant', base: 'deno-echo' },
];

// What is measured, and what is compared with what. `kind`: `echo` servers only parse and answer
// (they skip the auth and validation checks), `baseline` servers do the whole job without Plantstore,
// `ours` is a Plantstore entry. `storage` marks the setups that need a database.

/** @typedef {{ id: string, label: string, kind: 'echo' | 'baseline' | 'ours', file?: string, env?: Record<string, string>, storage?: 'pglite' | 'postgres' }} Setup */

/**
 * Each setup's kind and label, and where it differs from the rest, by id (the id also names its
 * server file, unless `file` says otherwise).
 *
 * @type {Record<string, [Setup['kind'], string, Pick<Setup, 'file' | 'env' | 'storage'>?]>}
 */
const TABLE = {
  'express5-echo': ['echo', 'Express 5 + express.json, echo'],
  'express5-hand': ['baseline', 'Express 5 + express.json + jose + checks'],
  'express4-plant': ['ours', 'plantRouter on Express 4'],
  'express5-plant': ['ours', 'plantRouter on Express 5'],
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
  'pglite-hand': ['baseline', 'node entry + hand-written PGlite store', { storage: 'pglite' }],
  'pglite-plant': ['ours', 'node entry + postgresStore on PGlite', { storage: 'pglite' }],
  'pg-hand': ['baseline', 'node entry + hand-written pg store', { storage: 'postgres' }],
  'pg-plant': ['ours', 'node entry + postgresStore on pg', { storage: 'postgres' }],
};

/** @type {Setup[]} */
export const SETUPS = Object.entries(TABLE).map(([id, [kind, label, extra]]) => ({
  id,
  kind,
  label,
  ...extra,
}));

/**
 * A ratio with a target of the issue: ours must reach `target` × the baseline.
 *
 * @param {string} ours
 * @param {string} base
 * @param {number} target
 * @param {string} goal
 */
const withTarget = (ours, base, target, goal) => ({ ours, base, target, goal });

/**
 * Ratios reported, ours over a baseline of the same run: with a target (see {@link withTarget}), or
 * without one, for information.
 *
 * @type {{ ours: string, base: string, target?: number, goal?: string }[]}
 */
export const COMPARISONS = [
  withTarget(
    'express5-plant',
    'express5-hand',
    1.2,
    'Express 5 adapter ≥ 1.2× hand-written Express',
  ),
  withTarget('express5-plant', 'express5-echo', 0.85, 'Express 5 adapter ≥ 0.85× Express echo'),
  { ours: 'express4-plant', base: 'express5-hand' },
  { ours: 'express4-plant', base: 'express5-echo' },
  withTarget('koa3-plant', 'koa3-echo', 0.9, 'Koa 3 adapter ≥ 0.9× Koa echo'),
  { ours: 'koa3-plant', base: 'koa3-hand' },
  { ours: 'koa2-plant', base: 'koa3-echo' },
  withTarget('node-plant', 'fastify', 1, 'node:http entry ≥ Fastify'),
  { ours: 'fastify-plant', base: 'fastify' },
  withTarget('node-plant', 'node-hand', 1.3, 'node:http entry ≥ 1.3× hand-written node:http'),
  { ours: 'node-plant', base: 'node-echo' },
  { ours: 'node-plant-nocache', base: 'node-hand' },
  { ours: 'node-plant-nocache', base: 'node-plant' },
  withTarget('pg-plant', 'pg-hand', 0.9, 'PostgreSQL store ≥ 0.9× hand-written pg insert'),
  { ours: 'pglite-plant', base: 'pglite-hand' },
];

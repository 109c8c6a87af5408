// What is measured, and what is compared with what. `kind`: `echo` servers only parse and answer
// (they skip the auth and validation checks), `baseline` servers do the whole job without Plantstore,
// `ours` is a Plantstore entry. `storage` marks the setups that need a database.

/** @typedef {{ id: string, label: string, kind: 'echo' | 'baseline' | 'ours', file?: string, env?: Record<string, string>, storage?: 'pglite' | 'postgres' }} Setup */

/** @type {Setup[]} */
export const SETUPS = [
  { id: 'express5-echo', kind: 'echo', label: 'Express 5 + express.json, echo' },
  { id: 'express5-hand', kind: 'baseline', label: 'Express 5 + express.json + jose + checks' },
  { id: 'express4-plant', kind: 'ours', label: 'plantRouter on Express 4' },
  { id: 'express5-plant', kind: 'ours', label: 'plantRouter on Express 5' },
  { id: 'koa3-echo', kind: 'echo', label: 'Koa 3 + bodyparser, echo' },
  { id: 'koa3-hand', kind: 'baseline', label: 'Koa 3 + router + bodyparser + jose + checks' },
  { id: 'koa2-plant', kind: 'ours', label: 'plantRoutes on Koa 2' },
  { id: 'koa3-plant', kind: 'ours', label: 'plantRoutes on Koa 3' },
  { id: 'fastify', kind: 'baseline', label: 'Fastify 5 + JSON schema + @fastify/jwt' },
  { id: 'fastify-plant', kind: 'ours', label: 'plantPlugin on Fastify 5' },
  { id: 'node-echo', kind: 'echo', label: 'node:http echo' },
  { id: 'node-hand', kind: 'baseline', label: 'node:http + jose + valibot' },
  { id: 'node-plant', kind: 'ours', label: 'createNodeHandler on node:http' },
  {
    id: 'node-plant-nocache',
    file: 'node-plant',
    env: { BENCH_TOKEN_CACHE: 'off' },
    kind: 'ours',
    label: 'createNodeHandler, token cache off',
  },
  {
    id: 'pglite-hand',
    kind: 'baseline',
    storage: 'pglite',
    label: 'node entry + hand-written PGlite store',
  },
  {
    id: 'pglite-plant',
    kind: 'ours',
    storage: 'pglite',
    label: 'node entry + postgresStore on PGlite',
  },
  {
    id: 'pg-hand',
    kind: 'baseline',
    storage: 'postgres',
    label: 'node entry + hand-written pg store',
  },
  { id: 'pg-plant', kind: 'ours', storage: 'postgres', label: 'node entry + postgresStore on pg' },
];

/**
 * Ratios reported, ours over a baseline of the same run. `target` is the (ours must reach
 * `target` × the baseline); comparisons without one are reported for information.
 *
 * @type {{ ours: string, base: string, target?: number, goal?: string }[]}
 */
export const COMPARISONS = [
  {
    ours: 'express5-plant',
    base: 'express5-hand',
    target: 1.2,
    goal: 'Express 5 adapter ≥ 1.2× hand-written Express',
  },
  {
    ours: 'express5-plant',
    base: 'express5-echo',
    target: 0.85,
    goal: 'Express 5 adapter ≥ 0.85× Express echo',
  },
  { ours: 'express4-plant', base: 'express5-hand' },
  { ours: 'express4-plant', base: 'express5-echo' },
  { ours: 'koa3-plant', base: 'koa3-echo', target: 0.9, goal: 'Koa 3 adapter ≥ 0.9× Koa echo' },
  { ours: 'koa3-plant', base: 'koa3-hand' },
  { ours: 'koa2-plant', base: 'koa3-echo' },
  { ours: 'node-plant', base: 'fastify', target: 1, goal: 'node:http entry ≥ Fastify' },
  { ours: 'fastify-plant', base: 'fastify' },
  {
    ours: 'node-plant',
    base: 'node-hand',
    target: 1.3,
    goal: 'node:http entry ≥ 1.3× hand-written node:http',
  },
  { ours: 'node-plant', base: 'node-echo' },
  { ours: 'node-plant-nocache', base: 'node-hand' },
  { ours: 'node-plant-nocache', base: 'node-plant' },
  {
    ours: 'pg-plant',
    base: 'pg-hand',
    target: 0.9,
    goal: 'PostgreSQL store ≥ 0.9× hand-written pg insert',
  },
  { ours: 'pglite-plant', base: 'pglite-hand' },
];

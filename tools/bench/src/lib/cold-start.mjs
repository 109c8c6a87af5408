// Cold start: a fresh `node` process imports a package and creates the service, N times; medians.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import process from 'node:process';
import { AUDIENCE, ISSUER, SECRET } from '../config.mjs';
import { median } from './stats.mjs';

const PACKAGE_DIR = join(import.meta.dirname, '..', '..');
const auth = `jwtBearer({ secret: ${JSON.stringify(SECRET)}, issuer: ${JSON.stringify(ISSUER)}, audience: ${JSON.stringify(AUDIENCE)} })`;

/** What each probe imports and creates; the time of exactly this is `work`. */
export const PROBES = [
  { name: 'node, nothing imported', code: '' },
  {
    name: '@plantstore/core: createPlantService',
    code: `const { createPlantService, jwtBearer, memoryStore } = await import('@plantstore/core');
      createPlantService({ store: memoryStore(), auth: ${auth} });`,
  },
  {
    name: '@plantstore/express: plantRouter',
    code: `const { jwtBearer, memoryStore } = await import('@plantstore/core');
      const { plantRouter } = await import('@plantstore/express');
      plantRouter({ store: memoryStore(), auth: ${auth} });`,
  },
  {
    name: '@plantstore/koa: plantRoutes',
    code: `const { jwtBearer, memoryStore } = await import('@plantstore/core');
      const { plantRoutes } = await import('@plantstore/koa');
      plantRoutes({ store: memoryStore(), auth: ${auth} });`,
  },
  {
    name: '@plantstore/fastify: plantPlugin',
    code: `const { jwtBearer, memoryStore } = await import('@plantstore/core');
      const { plantPlugin } = await import('@plantstore/fastify');
      plantPlugin({ store: memoryStore(), auth: ${auth} });`,
  },
  {
    name: '@plantstore/postgres + pg: postgresStore',
    code: `const { createPlantService, jwtBearer } = await import('@plantstore/core');
      const { postgresStore } = await import('@plantstore/postgres');
      const { default: pg } = await import('pg');
      createPlantService({ store: postgresStore({ client: new pg.Pool() }), auth: ${auth} });`,
  },
  { name: 'for reference: jose', code: `await import('jose');` },
  {
    name: 'for reference: express 5 app',
    code: `const { default: express } = await import('express5'); express();`,
  },
  {
    name: 'for reference: koa 3 app',
    code: `const { default: Koa } = await import('koa3'); new Koa();`,
  },
  {
    name: 'for reference: fastify + @fastify/jwt, ready',
    code: `const { default: Fastify } = await import('fastify');
      const { default: jwt } = await import('@fastify/jwt');
      const app = Fastify(); app.register(jwt, { secret: 'x'.repeat(32) }); await app.ready();`,
  },
];

function probeOnce(code) {
  const script = `const t0 = performance.now(); ${code}
    const t1 = performance.now();
    process.stdout.write(JSON.stringify({ work: t1 - t0, ready: t1 }));`;
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`cold-start probe failed:\n${result.stderr}`);
  return { ...JSON.parse(result.stdout), wall };
}

/**
 * Runs every probe `runs` times, interleaved, after one unmeasured run each that warms the file cache.
 *
 * @param {number} runs
 * @returns {{ name: string, work: number, ready: number, wall: number }[]} medians in ms
 */
export function coldStart(runs) {
  const samples = PROBES.map(({ code }) => {
    probeOnce(code);
    return [];
  });
  // Interleaved, A B C … A B C …, so that a busy moment of the machine touches every probe alike.
  for (let run = 0; run < runs; run += 1) {
    for (const [i, { code }] of PROBES.entries()) samples[i].push(probeOnce(code));
  }
  return PROBES.map(({ name }, i) => ({
    name,
    work: median(samples[i].map((s) => s.work)),
    ready: median(samples[i].map((s) => s.ready)),
    wall: median(samples[i].map((s) => s.wall)),
  }));
}

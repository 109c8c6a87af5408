// First requests: what a server costs from its spawn through its first hundred requests, before any
// load warms it (the rounds warm every server first, so they never show it): JIT, the first
// WebCrypto call, lazy imports. A fresh process per run, the setups interleaved; medians. Some of
// ours also run as a variant that awaits `service.warmUp()` before listening, in the same run.
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { HOST, signToken } from '../config.mjs';
import { freshBody } from './load.mjs';
import { cpuMicros, startServer, threadCpuMicros } from './processes.mjs';
import { median } from './stats.mjs';

/** The setups measured, in this order, when the run has them. */
export const FIRST_REQUEST_SETUPS = [
  'node-plant',
  'node-hand',
  'fastify',
  'fastify-plant',
  'express5-plant',
  'express5-hand',
  'koa3-plant',
  'koa3-hand',
];

/** Ours that also run with `service.warmUp()` awaited before listening (`BENCH_WARM_UP=on`). */
export const WARM_UP_SETUPS = ['node-plant', 'express5-plant', 'koa3-plant'];

/** The id of a setup's variant that awaits `service.warmUp()` before it listens. */
export const warmedId = (id) => `${id}+warm-up`;

/** Requests sent to each fresh server, the first included. */
export const FIRST_REQUESTS = 100;

/** Longest wait for one answer before the run is given up. */
const REQUEST_TIMEOUT_MS = 10_000;

/**
 * @typedef {{ spawn: number, first: number, firstCpu: number, next: number, cpu: number, requestsCpu: number }} FirstRun -
 *   one fresh server, in ms: spawn → port announced, the first request, CPU from the port announced
 *   through the first answer, the next 99 together, CPU from spawn through the last answer, and CPU
 *   from the port announced through the last answer
 * @typedef {{ id: string, label: string, kind: string, runs: FirstRun[] } & FirstRun} FirstResult -
 *   a setup's medians, and its runs in order
 */

/**
 * Sends one `POST /plants` and waits for the end of its answer.
 *
 * @param {{ port: number, agent: Agent, token: string }} target
 * @returns {Promise<number>} ms from the request's start to the end of the answer
 */
function post({ port, agent, token }) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      {
        host: HOST,
        port,
        path: '/plants',
        method: 'POST',
        agent,
        timeout: REQUEST_TIMEOUT_MS,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - started;
          if (res.statusCode === 200) resolve(ms);
          else reject(new Error(`POST /plants answered ${res.statusCode}: ${body.slice(0, 200)}`));
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(freshBody());
  });
}

/**
 * Spawns a fresh server, times its start and its first requests, reads its CPU time, stops it.
 *
 * @param {import('../setups.mjs').Setup} setup
 * @param {string} token
 * @returns {Promise<FirstRun>}
 */
async function measureOnce(setup, token) {
  const spawned = performance.now();
  const server = await startServer(setup);
  const spawn = performance.now() - spawned;
  const listeningCpu = threadCpuMicros(server.pid);
  // One socket, kept alive: the first request pays for its connection, the next 99 do not.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const target = { port: server.port, agent, token };
    const first = await post(target);
    const firstCpu = (threadCpuMicros(server.pid) - listeningCpu) / 1000;
    let next = 0;
    for (let i = 1; i < FIRST_REQUESTS; i += 1) next += await post(target);
    const cpu = cpuMicros(server.pid) / 1000;
    const requestsCpu = (threadCpuMicros(server.pid) - listeningCpu) / 1000;
    return { spawn, first, firstCpu, next, cpu, requestsCpu };
  } catch (error) {
    throw new Error(`${setup.id}: first requests failed: ${String(error)}`, { cause: error });
  } finally {
    agent.destroy();
    await server.stop();
  }
}

/**
 * Each setup's medians over `runs` fresh servers; run 1 of every setup, then run 2, and so on, after
 * one unmeasured run of the first setup, which warms the runner's own HTTP client.
 *
 * @param {import('../setups.mjs').Setup[]} setups - the run's setups; only those listed in
 *   `FIRST_REQUEST_SETUPS` are measured
 * @param {number} runs
 * @returns {Promise<FirstResult[]>}
 */
export async function firstRequests(setups, runs) {
  // Each variant right after its setup: run i of both is seconds apart.
  const measured = FIRST_REQUEST_SETUPS.flatMap((id) => setups.filter((s) => s.id === id)).flatMap(
    (setup) => (WARM_UP_SETUPS.includes(setup.id) ? [setup, warmedVariant(setup)] : [setup]),
  );
  if (measured.length === 0 || runs <= 0) return [];
  const token = await signToken();
  await measureOnce(measured[0], token);
  /** @type {FirstRun[][]} */
  const samples = measured.map(() => []);
  for (let run = 0; run < runs; run += 1) {
    for (const [i, setup] of measured.entries()) {
      await sleep(100);
      samples[i].push(await measureOnce(setup, token));
    }
  }
  return measured.map((setup, i) => ({
    id: setup.id,
    label: setup.label,
    kind: setup.kind,
    spawn: median(samples[i].map((s) => s.spawn)),
    first: median(samples[i].map((s) => s.first)),
    firstCpu: median(samples[i].map((s) => s.firstCpu)),
    next: median(samples[i].map((s) => s.next)),
    cpu: median(samples[i].map((s) => s.cpu)),
    requestsCpu: median(samples[i].map((s) => s.requestsCpu)),
    runs: samples[i],
  }));
}

/**
 * The variant of `setup` whose server awaits `service.warmUp()` before it listens.
 *
 * @param {import('../setups.mjs').Setup} setup
 * @returns {import('../setups.mjs').Setup}
 */
function warmedVariant(setup) {
  return {
    ...setup,
    id: warmedId(setup.id),
    file: setup.file ?? setup.id,
    label: `${setup.label}, \`warmUp()\` before listening`,
    env: { ...setup.env, BENCH_WARM_UP: 'on' },
  };
}

/**
 * `base`'s figure ÷ `mine`'s, from the medians, with the lowest and highest ratio of single runs.
 *
 * @param {FirstResult} mine
 * @param {FirstResult} base
 * @param {'spawn' | 'first' | 'firstCpu' | 'next' | 'requestsCpu'} key
 */
function ratioOf(mine, base, key) {
  const perRun = mine.runs.map((run, i) => base.runs[i][key] / run[key]);
  return { value: base[key] / mine[key], low: Math.min(...perRun), high: Math.max(...perRun) };
}

/**
 * Without the warm-up ÷ with it, for each setup measured both ways (above 1: the warm-up saves
 * time), for the first request, the next 99 and the CPU of the 100; and, the other way round, with
 * ÷ without for spawn → listening, which the warm-up lengthens.
 *
 * @param {FirstResult[]} results
 */
export function warmUpRatios(results) {
  return WARM_UP_SETUPS.flatMap((id) => {
    const cold = results.find((r) => r.id === id);
    const warmed = results.find((r) => r.id === warmedId(id));
    if (cold === undefined || warmed === undefined) return [];
    return [
      {
        id,
        first: ratioOf(warmed, cold, 'first'),
        firstCpu: ratioOf(warmed, cold, 'firstCpu'),
        next: ratioOf(warmed, cold, 'next'),
        cpu: ratioOf(warmed, cold, 'requestsCpu'),
        spawn: ratioOf(cold, warmed, 'spawn'),
        // What the first request gains, in ms, from the medians: the figure to weigh.
        firstSaved: cold.first - warmed.first,
        firstCpuSaved: cold.firstCpu - warmed.firstCpu,
      },
    ];
  });
}

/**
 * Fastify's time ÷ ours for the first request, for the next 99 and for the CPU of all 100 (above 1:
 * Fastify takes longer), from the medians, with the lowest and highest ratio of single runs (run i of both setups ran
 * seconds apart).
 *
 * @param {FirstResult[]} results
 * @param {string[]} [ours]
 * @param {string} [base]
 */
export function firstRequestRatios(
  results,
  ours = ['node-plant', 'fastify-plant'],
  base = 'fastify',
) {
  const baseline = results.find((r) => r.id === base);
  if (baseline === undefined) return [];
  return ours.flatMap((id) => {
    const mine = results.find((r) => r.id === id);
    if (mine === undefined) return [];
    /** @param {'first' | 'next' | 'requestsCpu'} key */
    const ratio = (key) => ratioOf(mine, baseline, key);
    return [
      { ours: id, base, first: ratio('first'), next: ratio('next'), cpu: ratio('requestsCpu') },
    ];
  });
}

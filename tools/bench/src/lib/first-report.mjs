// The "First requests" section of docs/reference/performance.md, and its ratio lines for the console.
import {
  FIRST_REQUEST_SETUPS,
  FIRST_REQUESTS,
  firstRequestRatios,
  warmUpRatios,
} from './first-requests.mjs';
import { format } from './stats.mjs';
import { ratioText, table } from './table.mjs';

/** A ratio with the lowest and highest of single runs. */
const figure = (r) => `${ratioText(r.value)} (runs ${r.low.toFixed(2)}–${r.high.toFixed(2)})`;

/**
 * Fastify's time ÷ ours (above 1: Fastify takes longer), first request, next 99 and the CPU of the 100, as one line's
 * list; `''` without Fastify or ours.
 *
 * @param {import('./first-requests.mjs').FirstResult[]} first
 * @param {(id: string) => string} [name] - how a setup id is written
 */
export function firstRatiosLine(first, name = (id) => id) {
  const list = firstRequestRatios(first);
  if (list.length === 0) return '';
  const pairs = list.map(
    (r) =>
      `${name(r.base)} ÷ ${name(r.ours)}, first request ${figure(r.first)}, next ${FIRST_REQUESTS - 1} ${figure(r.next)}, CPU of the ${FIRST_REQUESTS} ${figure(r.cpu)}`,
  );
  return pairs.join('; ');
}

/**
 * Without the warm-up ÷ with it (above 1: the warm-up saves time), first request, next 99 and the
 * CPU of the 100, and with ÷ without for spawn → listening, as one line's list; `''` without both.
 *
 * @param {import('./first-requests.mjs').FirstResult[]} first
 * @param {(id: string) => string} [name] - how a setup id is written
 */
export function warmUpRatiosLine(first, name = (id) => id) {
  return warmUpRatios(first)
    .map(
      (r) =>
        `${name(r.id)}, first request ${figure(r.first)} (${format(r.firstSaved, 1)} ms of the medians), its CPU ${figure(r.firstCpu)} (${format(r.firstCpuSaved, 1)} ms), next ${FIRST_REQUESTS - 1} ${figure(r.next)}, CPU of the ${FIRST_REQUESTS} ${figure(r.cpu)}; spawn → listening, with ÷ without, ${figure(r.spawn)}`,
    )
    .join('; ');
}

/**
 * @param {import('./first-requests.mjs').FirstResult[]} first
 * @param {{ firstRuns: number }} options
 */
export function firstSection(first, options) {
  const out = ['## First requests', ''];
  if (options.firstRuns === 0) return [...out, 'Not run this time (`BENCH_FIRST_RUNS=0`).', ''];
  if (first.length === 0) {
    const list = FIRST_REQUEST_SETUPS.map((id) => `\`${id}\``).join(', ');
    return [...out, `Not run this time: the run has none of the setups it measures (${list}).`, ''];
  }
  out.push(
    `The rounds above warm every server first; this is what they leave out. A fresh server of each setup,`,
    `${options.firstRuns} times (the setups interleaved), answers its first ${FIRST_REQUESTS} requests with no load before them: JIT, the first`,
    'WebCrypto call and lazy imports fall on them. The `+warm-up` variants await `service.warmUp()` before',
    'they listen; the Fastify plugin always does, while it registers. Medians; see [Method](#method).',
    '',
    table(
      [
        'setup',
        'what it is',
        'spawn → listening ms',
        'first request ms',
        'its CPU ms',
        `next ${FIRST_REQUESTS - 1} ms`,
        `CPU ms to the ${FIRST_REQUESTS}th`,
        `CPU ms of the ${FIRST_REQUESTS} requests`,
      ],
      first.map((f) => [
        `\`${f.id}\``,
        f.label,
        format(f.spawn),
        format(f.first, 1),
        format(f.firstCpu, 1),
        format(f.next, 1),
        format(f.cpu),
        format(f.requestsCpu, 1),
      ]),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  );
  const ratiosLine = firstRatiosLine(first, (id) => `\`${id}\``);
  if (ratiosLine !== '')
    out.push(`Fastify's time ÷ ours (above 1 means Fastify takes longer): ${ratiosLine}.`, '');
  const warmUpLine = warmUpRatiosLine(first, (id) => `\`${id}\``);
  if (warmUpLine !== '')
    out.push(`Without \`warmUp()\` ÷ with it (above 1 means it saves time): ${warmUpLine}.`, '');
  return out;
}

/**
 * What the console shows of the first requests: one line per setup, then the ratio lines.
 *
 * @param {import('./first-requests.mjs').FirstResult[]} first
 * @returns {string[]}
 */
export function firstConsoleLines(first) {
  const lines = first.map(
    (f) =>
      `first requests ${f.id}: listening after ${f.spawn.toFixed(0)} ms, first request ${f.first.toFixed(1)} ms (CPU ${f.firstCpu.toFixed(1)} ms), next ${FIRST_REQUESTS - 1} ${f.next.toFixed(1)} ms, CPU ${f.cpu.toFixed(0)} ms to the ${FIRST_REQUESTS}th, ${f.requestsCpu.toFixed(1)} ms of the requests`,
  );
  const fastify = firstRatiosLine(first);
  if (fastify !== '')
    lines.push(`first requests, Fastify's time ÷ ours (>1: Fastify takes longer): ${fastify}`);
  const warmUp = warmUpRatiosLine(first);
  if (warmUp !== '')
    lines.push(`first requests, without warmUp() ÷ with it (>1: it saves time): ${warmUp}`);
  return lines;
}

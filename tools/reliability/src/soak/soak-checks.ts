import type { InvariantResult } from '../check/nothing-lost';
import type { PhaseResult } from './drive-phase';

/** One check of the soak: CI counts them in the last line. */
export interface Check {
  readonly adapter: string;
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Memory of the host process, in bytes. */
export interface MemoryReadings {
  /** After warm-up and GC, before the measured load. */
  readonly heapBefore: number;
  /** After the load, an idle second and GC. */
  readonly heapAfter: number;
  /** At the end of the first, second and last third of the load. */
  readonly rssStart: number;
  readonly rssMiddle: number;
  readonly rssEnd: number;
}

const MiB = 1024 * 1024;

/** Tolerances of the stability checks, chosen from repeated runs on a 2-core machine. */
export const TOLERANCE = {
  /** The last third's p99 may be this many times the first third's… */
  p99Factor: 2,
  /** …or this many milliseconds above it, whichever is more. */
  p99SlackMs: 10,
  /** RSS at the end may exceed RSS at the end of the middle third by this fraction… */
  rssGrowth: 0.2,
  /** …plus this many bytes. */
  rssSlack: 16 * MiB,
  /** The heap after GC may exceed its level before the load by this many bytes. */
  heapSlack: 8 * MiB,
} as const;

/**
 * The soak's checks for one adapter: no unexpected status, no socket error, stable p99 and RSS,
 * the heap back to its level, the host healthy and every invariant holding.
 */
export function soakChecks(input: {
  readonly adapter: string;
  readonly unexpected: number;
  readonly unexpectedSample: readonly string[];
  readonly phases: readonly PhaseResult[];
  readonly memory: MemoryReadings;
  readonly healthStatus: number;
  readonly fiveHundreds: number;
  readonly invariants: readonly InvariantResult[];
}): Check[] {
  const { adapter, phases, memory } = input;
  const first = phases[0] as PhaseResult;
  const last = phases[phases.length - 1] as PhaseResult;
  const p99Limit = Math.max(first.p99 * TOLERANCE.p99Factor, first.p99 + TOLERANCE.p99SlackMs);
  // RSS is measured against the middle third, not the first: the first still holds the process's
  // own warm-up (the pool's connections, compiled code, the allocator's arenas), which in the 10 s
  // per adapter that CI runs grew Express's RSS by 25 to 46 MiB before any steady state. A leak
  // keeps growing after it, and the heap check below catches one in JavaScript at any length.
  const rssLimit = memory.rssMiddle * (1 + TOLERANCE.rssGrowth) + TOLERANCE.rssSlack;
  const heapLimit = memory.heapBefore + TOLERANCE.heapSlack;
  const sockets = phases.reduce((sum, phase) => sum + phase.errors + phase.timeouts, 0);
  const mib = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MiB`;
  const check = (name: string, ok: boolean, detail: string): Check => ({
    adapter,
    name,
    ok,
    detail,
  });
  return [
    check(
      'zero unexpected statuses',
      input.unexpected === 0,
      input.unexpected === 0 ? '0' : `${input.unexpected}: ${input.unexpectedSample.join('; ')}`,
    ),
    check('zero socket errors and time-outs', sockets === 0, String(sockets)),
    check('zero 5xx (onError never called)', input.fiveHundreds === 0, String(input.fiveHundreds)),
    check(
      'p99 stable (last third vs first)',
      last.p99 <= p99Limit,
      `${first.p99} ms → ${last.p99} ms (limit ${p99Limit} ms)`,
    ),
    check(
      'RSS stable (end vs middle third)',
      memory.rssEnd <= rssLimit,
      `${mib(memory.rssMiddle)} → ${mib(memory.rssEnd)} (limit ${mib(rssLimit)})`,
    ),
    check(
      'heap back to its level after GC',
      memory.heapAfter <= heapLimit,
      `${mib(memory.heapBefore)} → ${mib(memory.heapAfter)} (limit ${mib(heapLimit)})`,
    ),
    check('host health route answers', input.healthStatus === 200, String(input.healthStatus)),
    ...input.invariants.map((result) =>
      check(
        result.invariant,
        result.violations.length === 0,
        result.violations.length === 0 ? `${result.checked} checked` : result.violations.join('; '),
      ),
    ),
  ];
}

import { send } from '@plantstore/http-suite/client';
import type { HostStats } from '../host/host-config';
import type { HostProcess } from '../host/host-process';

const MiB = 1024 * 1024;

/** How far memory may be from its level before a scenario, after GC. */
export const MEMORY_TOLERANCE = {
  heap: 8 * MiB,
  rss: 48 * MiB,
} as const;

/** The host after a scenario, against its state before. */
export interface HealthReport {
  readonly healthStatus: number;
  readonly healthMs: number;
  readonly heapBefore: number;
  readonly heapAfter: number;
  readonly rssBefore: number;
  readonly rssAfter: number;
  readonly connections: number;
  /** What is wrong; empty when the host is healthy. */
  readonly problems: readonly string[];
}

/**
 * Invariant 5: the host's own route answers, its sockets are back to `connections` or fewer (polled
 * for up to `settleMs`), its framework saw no error, and after GC its heap and RSS are back near
 * their level before the scenario.
 *
 * @param host - the host
 * @param before - `host.gc()` taken before the scenario
 * @param options - open sockets expected afterwards (default 0) and how long to wait for them
 * @returns the readings and the problems found
 */
export async function checkHostHealth(
  host: HostProcess,
  before: HostStats,
  options: { readonly connections?: number; readonly settleMs?: number } = {},
): Promise<HealthReport> {
  const started = Date.now();
  const health = await send(host.url, { method: 'GET', path: '/health', timeoutMs: 5_000 })
    .then((reply) => (reply.text === 'ok' ? reply.status : -reply.status))
    .catch(() => 0);
  const healthMs = Date.now() - started;
  const allowed = options.connections ?? 0;
  const deadline = Date.now() + (options.settleMs ?? 3_000);
  let after = await host.gc();
  while (after.connections > allowed && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await host.gc();
  }
  const problems: string[] = [];
  if (health !== 200) problems.push(`GET /health answered ${health}`);
  if (after.connections > allowed) {
    problems.push(`${after.connections} sockets still open (expected at most ${allowed})`);
  }
  if (after.hostErrors !== before.hostErrors) {
    problems.push(
      `${after.hostErrors - before.hostErrors} errors reached the host framework ` +
        `(${after.hostErrorSamples.join('; ')})`,
    );
  }
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
  if (after.heapUsed > before.heapUsed + MEMORY_TOLERANCE.heap) {
    problems.push(`heap ${mib(before.heapUsed)} → ${mib(after.heapUsed)} after GC`);
  }
  if (after.rss > before.rss + MEMORY_TOLERANCE.rss) {
    problems.push(`RSS ${mib(before.rss)} → ${mib(after.rss)} after GC`);
  }
  return {
    healthStatus: health,
    healthMs,
    heapBefore: before.heapUsed,
    heapAfter: after.heapUsed,
    rssBefore: before.rss,
    rssAfter: after.rss,
    connections: after.connections,
    problems,
  };
}

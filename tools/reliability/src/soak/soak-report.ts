import type { AdapterSoak } from './soak-adapter';
import { REQUEST_KINDS, type RequestKind } from './request-mix';

const MiB = 1024 * 1024;
const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * Renders the soak's results as markdown tables, ending with the line `N passed, M failed` that
 * CI reads.
 *
 * @param soaks - one result per adapter
 * @param seconds - the total duration asked for
 * @returns the report
 */
export function soakReport(soaks: readonly AdapterSoak[], seconds: number): string {
  const phases = table(
    ['adapter', 'phase', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'RSS MiB at its end'],
    soaks.flatMap((soak) =>
      soak.phases.map((phase, index) => [
        soak.adapter,
        ['first third', 'middle third', 'last third'][index] ?? String(index),
        String(phase.requests),
        phase.perSecond.toFixed(0),
        String(phase.p50),
        String(phase.p99),
        mib([soak.rss.start, soak.rss.middle, soak.rss.end][index] ?? 0),
      ]),
    ),
  );
  const kinds = Object.keys(REQUEST_KINDS) as RequestKind[];
  const statuses = table(
    ['request', 'expected', ...soaks.map((soak) => `${soak.adapter}: statuses`)],
    kinds.map((kind) => [
      kind,
      String(REQUEST_KINDS[kind]),
      ...soaks.map((soak) =>
        [...(soak.statuses.get(kind) ?? new Map<number, number>())]
          .sort(([a], [b]) => a - b)
          .map(([status, count]) => `${status}×${count}`)
          .join(' '),
      ),
    ]),
  );
  const memory = table(
    [
      'adapter',
      'heap before MiB',
      'heap after GC MiB',
      'RSS MiB after 1st third',
      'after 2nd third',
      'at the end',
      'peak',
      'rows',
    ],
    soaks.map((soak) => [
      soak.adapter,
      mib(soak.heap.before),
      mib(soak.heap.after),
      mib(soak.rss.start),
      mib(soak.rss.middle),
      mib(soak.rss.end),
      mib(soak.rss.peak),
      String(soak.rows),
    ]),
  );
  const checks = soaks.flatMap((soak) => soak.checks);
  const checkTable = table(
    ['adapter', 'check', 'result', 'detail'],
    checks.map((check) => [check.adapter, check.name, check.ok ? 'pass' : 'FAIL', check.detail]),
  );
  const passed = checks.filter((check) => check.ok).length;
  return [
    `## Soak: ${seconds} s across ${soaks.map((soak) => soak.adapter).join(' and ')}, 50 connections`,
    '',
    phases,
    '',
    statuses,
    '',
    memory,
    '',
    checkTable,
    '',
    `${passed} passed, ${checks.length - passed} failed`,
  ].join('\n');
}

import { Agent } from 'node:http';
import type pg from 'pg';
import { checkNothingLost, type Exchange } from '../check/nothing-lost';
import { createPlantTable, dropPlantTable, freshTableName, readRows } from '../check/plant-table';
import { untilSettled } from '../client/until-settled';
import { send } from '@plantstore/http-suite/client';
import type { Adapter } from '../host/adapters';
import type { HostAuthConfig } from '../host/host-config';
import { startHost } from '../host/host-process';
import { drivePhase, type PhaseResult } from './drive-phase';
import {
  exchangeOf,
  type MixTokens,
  type PlannedRequest,
  RequestMix,
  type RequestKind,
} from './request-mix';
import { type Check, soakChecks } from './soak-checks';

/** What the soak of one adapter measured and concluded. */
export interface AdapterSoak {
  readonly adapter: Adapter;
  readonly phases: readonly PhaseResult[];
  /** RSS at the end of each third of the load, and the highest sampled (once a second). */
  readonly rss: {
    readonly start: number;
    readonly middle: number;
    readonly end: number;
    readonly peak: number;
  };
  readonly heap: { readonly before: number; readonly after: number };
  /** Answers by kind of request and status. */
  readonly statuses: ReadonlyMap<RequestKind, ReadonlyMap<number, number>>;
  readonly rows: number;
  readonly checks: readonly Check[];
}

/** Settings of one adapter's soak. */
export interface SoakSettings {
  readonly adapter: Adapter;
  readonly space: number;
  readonly seconds: number;
  readonly connections: number;
  readonly databaseUrl: string;
  readonly pool: pg.Pool;
  readonly auth: HostAuthConfig;
  readonly tokens: MixTokens;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Soaks one adapter: a host process on a fresh table, a short warm-up, then three equal phases of
 * load, RSS sampled every second; then the requests cut off by the end of a phase are retried to a
 * final answer, the host is checked healthy, its heap measured after GC, and the table checked.
 */
export async function soakAdapter(settings: SoakSettings): Promise<AdapterSoak> {
  const { adapter, pool, seconds } = settings;
  const table = freshTableName(`soak_${adapter}`);
  await createPlantTable(pool, table);
  const host = await startHost({
    adapter,
    databaseUrl: settings.databaseUrl,
    table,
    pool: { max: 10, connectionTimeoutMillis: 1_000, statementTimeout: 6_000 },
    auth: settings.auth,
    server: { headersTimeout: 10_000, requestTimeout: 30_000 },
  });
  const mix = new RequestMix(settings.space, settings.tokens, 20_260_000 + settings.space);
  const exchanges: Exchange[] = [];
  const cutOff: PlannedRequest[] = [];
  const statuses = new Map<RequestKind, Map<number, number>>();
  let unexpected = 0;
  const unexpectedSample: string[] = [];
  const observer = {
    answered(request: PlannedRequest, status: number, body: string) {
      const byStatus = statuses.get(request.kind) ?? new Map<number, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      statuses.set(request.kind, byStatus);
      if (status !== request.expected) {
        unexpected += 1;
        if (unexpectedSample.length < 5) {
          unexpectedSample.push(`${request.kind} → ${status} ${body.slice(0, 120)}`);
        }
      }
      if (request.kind === 'create' && status === 200) mix.confirm(request.plant);
      exchanges.push(exchangeOf(request, status, body));
    },
    unanswered(request: PlannedRequest) {
      cutOff.push(request);
    },
  };
  try {
    await drivePhase(host.url, Math.min(2, seconds / 10), settings.connections, mix, observer);
    await sleep(500);
    const before = await host.gc();
    const rssSamples: number[] = [];
    const sampler = setInterval(() => {
      void host.stats().then((stats) => rssSamples.push(stats.rss));
    }, 1_000);
    const phases: PhaseResult[] = [];
    const third = Math.max(1, Math.round((seconds - Math.min(2, seconds / 10)) / 3));
    const rssAt: number[] = [];
    for (let phase = 0; phase < 3; phase += 1) {
      phases.push(await drivePhase(host.url, third, settings.connections, mix, observer));
      rssAt.push((await host.stats()).rss);
    }
    clearInterval(sampler);
    // Invariant 4: what the end of a phase cut off is retried until it has a final answer.
    const agent = new Agent({ keepAlive: true, maxSockets: 10 });
    await Promise.all(
      cutOff.map(async (request) => {
        const { reply } = await untilSettled(
          () => send(host.url, { headers: request.headers, body: request.body, agent }),
          { maxAttempts: 20, pauseMs: 100 },
        );
        exchanges.push(exchangeOf(request, reply?.status ?? 'dropped', reply?.text));
      }),
    );
    agent.destroy();
    const health = await send(host.url, { method: 'GET', path: '/health' });
    await sleep(1_000);
    const after = await host.gc();
    const rows = await readRows(pool, table);
    const invariants = checkNothingLost(exchanges, rows);
    const [rssStart = 0, rssMiddle = 0, rssEnd = 0] = rssAt;
    const memory = {
      heapBefore: before.heapUsed,
      heapAfter: after.heapUsed,
      rssStart,
      rssMiddle,
      rssEnd,
      rssPeak: Math.max(rssEnd, ...rssSamples),
    };
    return {
      adapter,
      phases,
      rss: { start: rssStart, middle: rssMiddle, end: rssEnd, peak: memory.rssPeak },
      heap: { before: memory.heapBefore, after: memory.heapAfter },
      statuses,
      rows: rows.size,
      checks: soakChecks({
        adapter,
        unexpected,
        unexpectedSample,
        phases,
        memory,
        healthStatus: health.status,
        fiveHundreds: after.errors + after.hostErrors,
        invariants,
      }),
    };
  } finally {
    await host.close();
    if (process.env['SOAK_KEEP_TABLES'] !== '1') await dropPlantTable(pool, table);
  }
}

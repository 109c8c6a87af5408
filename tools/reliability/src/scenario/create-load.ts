import type { Agent } from 'node:http';
import { plantBody, type Reply, send } from '@plantstore/http-suite/client';
import type { Exchange, SentPlant } from '../check/nothing-lost';
import { type AttemptOutcome, untilSettled } from '../client/until-settled';
import { exactName, spreadId } from './exact-plants';

/** One logical create: a fresh plant, a replay of a confirmed one, or a conflicting body. */
export interface CreateOp {
  readonly kind: 'create' | 'replay' | 'conflict';
  readonly plant: SentPlant;
}

/** What a retrying client saw for one {@link CreateOp}. */
export interface CreateOutcome {
  readonly op: CreateOp;
  readonly attempts: readonly AttemptOutcome[];
  readonly reply: Reply | undefined;
  /** 503 answers of this op that had no `Retry-After`. */
  readonly missingRetryAfter: number;
}

/** Options of {@link runCreateLoad}. */
export interface CreateLoadOptions {
  /** Hosts to spread the requests over, round robin. */
  readonly urls: readonly string[];
  /** Bearer token of every request (or one per request). */
  readonly token: string | (() => string);
  /** The id space of the scenario. */
  readonly space: number;
  /** Clients at once. */
  readonly workers: number;
  /** Stop starting new ops after this long… */
  readonly durationMs?: number;
  /** …or after this many ops. */
  readonly count?: number;
  /** Share of replays and of conflicts among the ops, once a create was confirmed. */
  readonly replayShare?: number;
  readonly conflictShare?: number;
  readonly agent?: Agent;
  readonly pauseMs?: number;
}

const EXPECTED: Readonly<Record<CreateOp['kind'], number>> = {
  create: 200,
  replay: 200,
  conflict: 409,
};

/**
 * Clients creating plants while a fault is injected: each op is retried as invariant 4 allows (5xx,
 * 408, dropped) until it has a final answer; replays and conflicts target plants a 200 confirmed.
 *
 * @param options - hosts, token, concurrency and how long
 * @returns every op with every outcome it saw
 */
export async function runCreateLoad(options: CreateLoadOptions): Promise<CreateOutcome[]> {
  const outcomes: CreateOutcome[] = [];
  const confirmed: SentPlant[] = [];
  const deadline = Date.now() + (options.durationMs ?? Number.POSITIVE_INFINITY);
  const count = options.count ?? Number.POSITIVE_INFINITY;
  let started = 0;
  const nextOp = (): CreateOp => {
    const roll = Math.random();
    const replay = options.replayShare ?? 0.15;
    const conflict = options.conflictShare ?? 0.1;
    const stored = confirmed[Math.floor(Math.random() * confirmed.length)];
    if (stored !== undefined && roll < replay) return { kind: 'replay', plant: stored };
    if (stored !== undefined && roll < replay + conflict) {
      return { kind: 'conflict', plant: { ...stored, name: `${stored.name}!` } };
    }
    const index = started;
    const tag = index % 2 === 0 ? undefined : `tag ${index % 5}`;
    return {
      kind: 'create',
      plant: {
        id: spreadId(options.space, index),
        name: exactName(`${options.space}/${index}`),
        tag,
      },
    };
  };
  const worker = async (): Promise<void> => {
    while (Date.now() < deadline && started < count) {
      const op = nextOp();
      const url = options.urls[started % options.urls.length] as string;
      started += 1;
      let missingRetryAfter = 0;
      const token = typeof options.token === 'string' ? options.token : options.token();
      const { reply, attempts } = await untilSettled(
        async () => {
          const answer = await send(url, {
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: plantBody(op.plant),
            ...(options.agent === undefined ? {} : { agent: options.agent }),
          });
          if (answer.status === 503 && answer.headers['retry-after'] === undefined) {
            missingRetryAfter += 1;
          }
          return answer;
        },
        { pauseMs: options.pauseMs ?? 25 },
      );
      if (op.kind === 'create' && reply?.status === 200) confirmed.push(op.plant);
      outcomes.push({ op, attempts, reply, missingRetryAfter });
    }
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
  return outcomes;
}

/**
 * The exchanges the invariant check reads.
 *
 * @param outcomes - what {@link runCreateLoad} returned
 * @returns one exchange per op
 */
export function exchangesOf(outcomes: readonly CreateOutcome[]): Exchange[] {
  return outcomes.map(({ op, reply }) => ({
    plant: op.plant,
    final: reply?.status ?? 'dropped',
    body: reply?.text,
    expected: [EXPECTED[op.kind]],
  }));
}

/**
 * Counts every attempt's outcome (`200`, `503`, `dropped`…) across ops.
 *
 * @param outcomes - what {@link runCreateLoad} returned
 * @returns the count of each outcome
 */
export function attemptCounts(outcomes: readonly CreateOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { attempts } of outcomes) {
    for (const attempt of attempts) counts[String(attempt)] = (counts[String(attempt)] ?? 0) + 1;
  }
  return counts;
}

/**
 * The exchanges of plants each sent by {@link untilSettled}, in the same order.
 *
 * @param plants - what each request sent
 * @param settled - the final answer of each
 * @param expected - the right final statuses; default 200
 * @returns one exchange per plant
 */
export function settledExchanges(
  plants: readonly SentPlant[],
  settled: readonly { readonly reply: Reply | undefined }[],
  expected: readonly number[] = [200],
): Exchange[] {
  return plants.map((plant, index) => {
    const reply = settled[index]?.reply;
    return { plant, final: reply?.status ?? 'dropped', body: reply?.text, expected };
  });
}

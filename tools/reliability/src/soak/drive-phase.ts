import autocannon from 'autocannon';
import { percentile } from '../check/percentile';
import type { PlannedRequest, RequestMix } from './request-mix';

/** What one phase of load measured. */
export interface PhaseResult {
  readonly seconds: number;
  /** Requests answered. */
  readonly requests: number;
  readonly perSecond: number;
  /** Milliseconds, measured per request (see {@link drivePhase}). */
  readonly p50: number;
  readonly p99: number;
  /** autocannon's count of socket errors and of requests without an answer in 10 s. */
  readonly errors: number;
  readonly timeouts: number;
}

/** Told about every answer, and about the requests a phase sent but never saw answered. */
export interface PhaseObserver {
  answered(request: PlannedRequest, status: number, body: string): void;
  unanswered(request: PlannedRequest): void;
}

interface Context {
  request?: PlannedRequest;
  sentAt?: number;
}

/** A percentile in milliseconds, to a tenth. */
const msAt = (sorted: Float64Array, share: number): number =>
  Math.round(percentile(sorted, share) * 10) / 10;

/**
 * Drives `POST {url}/plants` with autocannon for a while, each request planned by the mix. A
 * request and its answer meet through autocannon's per-connection context: a connection has one
 * request in flight, and builds the next only after the answer.
 *
 * Latency is measured here, from the moment a request is built (just before autocannon writes it)
 * to its answer: autocannon's own figures go wrong after an answer with `Connection: close` (a 413),
 * as it queues a request on the closing socket and then times every later answer from the
 * request before it.
 *
 * @param url - the host
 * @param seconds - how long
 * @param connections - how many connections at once
 * @param mix - plans the requests
 * @param observer - told about every answer
 * @returns latency and throughput of the phase
 */
export async function drivePhase(
  url: string,
  seconds: number,
  connections: number,
  mix: RequestMix,
  observer: PhaseObserver,
): Promise<PhaseResult> {
  const inFlight = new Set<PlannedRequest>();
  const latencies: number[] = [];
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/plants',
        setupRequest: (request, context: Context) => {
          const planned = mix.next();
          context.request = planned;
          context.sentAt = performance.now();
          inFlight.add(planned);
          return { ...request, headers: planned.headers, body: planned.body };
        },
        onResponse: (status, body, context: Context) => {
          const planned = context.request;
          if (planned === undefined || !inFlight.delete(planned)) return;
          latencies.push(performance.now() - (context.sentAt ?? 0));
          observer.answered(planned, status, body);
        },
      },
    ],
  });
  for (const planned of inFlight) observer.unanswered(planned);
  const sorted = Float64Array.from(latencies).sort();
  return {
    seconds: result.duration,
    requests: latencies.length,
    perSecond: latencies.length / result.duration,
    p50: msAt(sorted, 0.5),
    p99: msAt(sorted, 0.99),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

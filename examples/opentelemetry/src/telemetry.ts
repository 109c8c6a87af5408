import { tracingChannel, type TracingChannelSubscribers } from 'node:diagnostics_channel';
import {
  type Attributes,
  type MeterProvider,
  metrics,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  HTTP_REQUEST_METHOD_VALUE_OTHER,
} from '@opentelemetry/semantic-conventions';
import {
  CREATE_TRACING_CHANNEL,
  type CreateFailureMessage,
  type CreateSuccessMessage,
  type CreateTraceMessage,
} from '@plantstore/core';

/** Where the spans and metrics go; the global providers of `@opentelemetry/api` by default. */
export interface PlantstoreTelemetryOptions {
  readonly tracerProvider?: TracerProvider | undefined;
  readonly meterProvider?: MeterProvider | undefined;
}

/** The span each request of the route becomes. */
export const SPAN_NAME = 'plantstore.create';
/** Requests answered, by method, status and outcome (200) or reason code (refusals). */
export const REQUESTS_METRIC = 'plantstore.requests';
/** How long the store's insert took, in seconds, by status and outcome or reason code. */
export const STORE_DURATION_METRIC = 'plantstore.store.duration';
/** The span and metric attribute of a 200: `created` or `replayed`. */
export const ATTR_OUTCOME = 'plantstore.outcome';
/** The span and metric attribute of a refusal: its stable reason code (`token_expired`, …). */
export const ATTR_REASON = 'plantstore.reason';

const SCOPE = '@plantstore/example-opentelemetry';
// Semantic conventions: a method outside the known set is recorded as `_OTHER`, so a client cannot
// make up new metric series.
const KNOWN_METHODS = new Set([
  'CONNECT',
  'DELETE',
  'GET',
  'HEAD',
  'OPTIONS',
  'PATCH',
  'POST',
  'PUT',
]);
// Store latencies are milliseconds: the SDK's default buckets (0 to 10 000) suit another unit.
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Turns the route's `plantstore:create` diagnostics channel into OpenTelemetry spans and metrics: a
 * `plantstore.create` span per request (status ERROR for a 5xx), a `plantstore.requests` counter and a
 * `plantstore.store.duration` histogram. No hook, no monkey-patching: it only subscribes.
 *
 * @param options - the tracer and meter providers; the global ones by default
 * @returns a function that unsubscribes
 * @example
 * ```ts
 * const uninstall = installPlantstoreTelemetry({ tracerProvider, meterProvider });
 * process.once('SIGTERM', uninstall);
 * ```
 */
export function installPlantstoreTelemetry(options: PlantstoreTelemetryOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const requests = meter.createCounter(REQUESTS_METRIC, {
    description: 'Requests answered by the plants route.',
    unit: '{request}',
  });
  const storeDuration = meter.createHistogram(STORE_DURATION_METRIC, {
    description: "How long the store's insert took.",
    unit: 's',
    advice: { explicitBucketBoundaries: STORE_BUCKETS },
  });
  // Every event of a request carries the same message object: it keys the request's span.
  const spans = new WeakMap<CreateTraceMessage, Span>();

  const subscribers: TracingChannelSubscribers<CreateTraceMessage> = {
    start(message) {
      const span = tracer.startSpan(SPAN_NAME, {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR_HTTP_REQUEST_METHOD]: methodOf(message.method) },
      });
      spans.set(message, span);
    },
    end() {},
    asyncStart() {},
    error(message) {
      // A refusal (4xx) is the route doing its job; only a failure of the server marks the span.
      if (message.code === undefined || message.status < 500) return;
      spans.get(message)?.setStatus({ code: SpanStatusCode.ERROR, message: message.code });
    },
    asyncEnd(message) {
      const span = spans.get(message);
      spans.delete(message);
      if (message.status === undefined) return;
      const attributes = answerAttributes(message);
      requests.add(1, { [ATTR_HTTP_REQUEST_METHOD]: methodOf(message.method), ...attributes });
      if (message.storeDurationMs !== undefined) {
        storeDuration.record(message.storeDurationMs / 1000, attributes);
      }
      span?.setAttributes(attributes);
      span?.end();
    },
  };

  const channel = tracingChannel<unknown, CreateTraceMessage>(CREATE_TRACING_CHANNEL);
  channel.subscribe(subscribers);
  return () => {
    channel.unsubscribe(subscribers);
  };
}

function methodOf(method: string): string {
  return KNOWN_METHODS.has(method) ? method : HTTP_REQUEST_METHOD_VALUE_OTHER;
}

/** The status, and the outcome of a 200 or the reason of a refusal; `error.type` for a 5xx. */
function answerAttributes(message: CreateSuccessMessage | CreateFailureMessage): Attributes {
  if (message.status === 200) {
    return { [ATTR_HTTP_RESPONSE_STATUS_CODE]: 200, [ATTR_OUTCOME]: message.outcome };
  }
  const attributes: Attributes = {
    [ATTR_HTTP_RESPONSE_STATUS_CODE]: message.status,
    [ATTR_REASON]: message.code,
  };
  if (message.status >= 500) attributes[ATTR_ERROR_TYPE] = message.code;
  return attributes;
}

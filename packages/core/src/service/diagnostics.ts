import type { TracingChannel } from 'node:diagnostics_channel';
import { nodeBuiltin } from '../common/node-builtin';
import type { PlantServiceErrorCode } from '../errors/error-codes';
import { isPlantServiceError } from '../errors/plant-service-error';
import type { PlantAnswer, PlantRequest } from '../http/request';

/**
 * The name of the `node:diagnostics_channel` TracingChannel every request to the route is published
 * on: its channels are `tracing:plantstore:create:start`, `…:end`, `…:asyncStart`, `…:asyncEnd` and
 * `…:error`. Messages are {@link CreateTraceMessage}s; nothing is built or published while nobody
 * subscribes.
 *
 * @example
 * ```ts
 * import { tracingChannel } from 'node:diagnostics_channel';
 * import { CREATE_TRACING_CHANNEL, type CreateTraceMessage } from '@plantstore/core';
 *
 * tracingChannel<unknown, CreateTraceMessage>(CREATE_TRACING_CHANNEL).subscribe({
 *   start() {},
 *   end() {},
 *   asyncStart() {},
 *   asyncEnd(message) {
 *     if (message.status !== undefined) console.log(message.method, message.status, message.code);
 *   },
 *   error() {},
 * });
 * ```
 */
export const CREATE_TRACING_CHANNEL = 'plantstore:create';

/** What `start` and `end` carry: the request has begun, nothing is decided yet. */
export interface CreateStartMessage {
  /** The request's method as the host handed it: `POST`, unless the fetch or node entry answers 404/405. */
  readonly method: string;
  readonly status?: undefined;
  readonly code?: undefined;
  readonly outcome?: undefined;
  readonly storeDurationMs?: undefined;
}

/** What `asyncStart` and `asyncEnd` carry when the plant was stored or replayed (200). */
export interface CreateSuccessMessage {
  readonly method: string;
  readonly status: 200;
  readonly code?: undefined;
  /** `created`: stored now (`onCreated` runs); `replayed`: the same plant was already stored. */
  readonly outcome: 'created' | 'replayed';
  /** Milliseconds (fractional) the store's `insert` took. */
  readonly storeDurationMs: number;
}

/** What `error`, then `asyncStart` and `asyncEnd`, carry when the request was refused or failed. */
export interface CreateFailureMessage {
  readonly method: string;
  /** The answer's status, 400 to 503. */
  readonly status: number;
  /** The stable reason, as `error.code` in the `onRejected` hook. */
  readonly code: PlantServiceErrorCode;
  readonly outcome?: undefined;
  /** Milliseconds the store took, when the request got that far (409, a store's 503 or 500). */
  readonly storeDurationMs?: number;
}

/**
 * The one object every event of a request shares (correlate by identity, as with every TracingChannel),
 * filled in as the request goes: {@link CreateStartMessage} at `start` and `end`,
 * {@link CreateFailureMessage} at `error`, the success or failure shape at `asyncStart` and `asyncEnd`.
 * Only bounded fields: never the token, its claims, the principal or the body, and no `error` object
 * (its `cause` can hold claims or submitted values; the `onRejected` and `onError` hooks get it).
 */
export type CreateTraceMessage = CreateStartMessage | CreateSuccessMessage | CreateFailureMessage;

interface Message {
  method: string;
  status?: number;
  code?: PlantServiceErrorCode;
  outcome?: 'created' | 'replayed';
  storeDurationMs?: number;
}

/** What the service tells a traced request's trace; the service gets `undefined` when nobody listens. */
export interface CreateTrace {
  /** The store's `insert` is about to be called. */
  storeStarted(): void;
  /** The store answered: the plant was created now (true) or is a replay or a conflict (false). */
  stored(created: boolean): void;
  /** The request is refused or failed with `error`, about to be answered from it. */
  refused(error: unknown): void;
}

type CreateChannel = TracingChannel<unknown, Message>;

// Made when the first service is, not when the module loads; on a runtime without
// node:diagnostics_channel (workerd without nodejs_compat, Vercel's Edge runtime) there is none,
// and nobody can subscribe.
let channel: CreateChannel | null | undefined;

function createChannel(): CreateChannel | null {
  if (channel === undefined) {
    const diagnostics = nodeBuiltin('node:diagnostics_channel');
    channel = diagnostics?.tracingChannel<unknown, Message>(CREATE_TRACING_CHANNEL) ?? null;
  }
  return channel;
}

class RequestTrace implements CreateTrace {
  readonly message: Message;
  #storeStart = -1;
  #created = false;
  #code: PlantServiceErrorCode = 'internal_error';

  constructor(method: string) {
    this.message = { method };
  }

  storeStarted(): void {
    this.#storeStart = performance.now();
  }

  stored(created: boolean): void {
    this.#storeEnded();
    this.#created = created;
  }

  refused(error: unknown): void {
    this.#storeEnded();
    // What the service answers anything else with: an InternalServerError('internal_error').
    if (isPlantServiceError(error)) this.#code = error.code;
  }

  settle(status: number): void {
    const { message } = this;
    message.status = status;
    if (status === 200) message.outcome = this.#created ? 'created' : 'replayed';
    else message.code = this.#code;
    this.#storeEnded();
  }

  #storeEnded(): void {
    if (this.#storeStart >= 0 && this.message.storeDurationMs === undefined) {
      this.message.storeDurationMs = performance.now() - this.#storeStart;
    }
  }
}

/** The service's own handler, told where to report when the request is traced. */
export type TracedHandler = (
  request: PlantRequest,
  trace: CreateTrace | undefined,
) => Promise<PlantAnswer>;

/**
 * Publishes each request that `handler` answers on the `plantstore:create` TracingChannel, as Node's
 * `tracePromise` would: `start` (with the subscribers' bound stores around the handler), `end` once it
 * returned its promise, then `error` for a refusal, `asyncStart` and `asyncEnd`. While nobody subscribes
 * the handler is called as it is, and no message is built.
 *
 * @param handler - the service's handler; it never rejects
 * @returns the handler the service exposes
 */
export function traceCreate(
  handler: TracedHandler,
): (request: PlantRequest) => Promise<PlantAnswer> {
  const channel = createChannel();
  if (channel === null) return (request) => handler(request, undefined);
  return (request) =>
    channel.hasSubscribers ? traced(channel, handler, request) : handler(request, undefined);
}

function traced(
  channel: CreateChannel,
  handler: TracedHandler,
  request: PlantRequest,
): Promise<PlantAnswer> {
  const trace = new RequestTrace(request.method);
  const { message } = trace;
  return channel.start.runStores(message, () => {
    const answered = handler(request, trace).then((answer) => {
      trace.settle(answer.status);
      if (answer.status !== 200) channel.error.publish(message);
      channel.asyncStart.publish(message);
      channel.asyncEnd.publish(message);
      return answer;
    });
    channel.end.publish(message);
    return answered;
  });
}

import { DeliveryError } from './event-sink';
import type { PendingEvent } from './outbox';
import { publish } from './relay-channels';
import type { RelayConfig } from './relay-options';
import { retryDelay } from './retry-delay';

/** What a round did. */
export interface RoundCounts {
  /** Events the sink confirmed, marked delivered. */
  readonly delivered: number;
  /** Deliveries that failed and will be retried. */
  readonly failed: number;
  /** Deliveries that failed for the last time: the events are dead. */
  readonly dead: number;
}

/** What the batch asks of the relay between sends. */
export interface BatchControl {
  /** Whether to start another send: false once the relay stops or lost its lease. */
  readonly goOn: () => Promise<boolean>;
  /** Reports an outbox failure (logged and published; the round goes on). */
  readonly report: (operation: string, error: unknown) => void;
}

// A log line stays a line whatever a sink puts in its message.
const MAX_ERROR = 300;

/**
 * Hands `events` to the sink, at most `concurrency` at once and those of one plant one after the
 * other (a plant's later event waits while an earlier one fails), then marks the confirmed ones
 * delivered and records each failure with its back-off, or as dead.
 *
 * @param config - the relay's options
 * @param events - the due events, oldest first
 * @param control - when to stop starting sends, where outbox failures go
 * @returns what was delivered, failed and died
 * @example
 * ```ts
 * const counts = await deliverBatch(config, await outbox.due(100, new Date()), control);
 * ```
 */
export async function deliverBatch(
  config: RelayConfig,
  events: readonly PendingEvent[],
  control: BatchControl,
): Promise<RoundCounts> {
  const plants = new Map<string, PendingEvent[]>();
  for (const event of events) {
    const key = `${event.tenant}\u0000${event.plantId}`;
    const list = plants.get(key);
    if (list === undefined) plants.set(key, [event]);
    else list.push(event);
  }
  const queue = [...plants.values()];
  const delivered: string[] = [];
  let failed = 0;
  let dead = 0;
  const worker = async (): Promise<void> => {
    for (let plant = queue.shift(); plant !== undefined; plant = queue.shift()) {
      for (const event of plant) {
        if (!(await control.goOn())) return;
        const error = await sendOne(config, event);
        if (error === undefined) {
          delivered.push(event.id);
          continue;
        }
        if (await recordFailure(config, event, error, control)) dead += 1;
        else failed += 1;
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, queue.length) }, worker));
  if (delivered.length > 0) {
    try {
      await config.outbox.delivered(delivered);
    } catch (error) {
      // The events stay due and are sent again: at least once, never lost.
      control.report('delivered', error);
    }
  }
  return { delivered: delivered.length, failed, dead };
}

/** Sends one event within the time-out; resolves the failure, or `undefined` once confirmed. */
async function sendOne(config: RelayConfig, event: PendingEvent): Promise<unknown> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(
      new DeliveryError(`time-out: no confirmation within ${config.sendTimeout} ms`),
    );
  }, config.sendTimeout);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
      once: true,
    });
  });
  // A sync throw becomes a rejection; a send that settles after its time-out is ignored, not unhandled.
  const sent = Promise.resolve().then(() => config.sink.send(event, controller.signal));
  sent.catch(() => undefined);
  try {
    await Promise.race([sent, aborted]);
    publish('delivered', () => ({
      id: event.id,
      tenant: event.tenant,
      plantId: event.plantId,
      attempts: event.attempts,
      lagMs: Date.now() - event.time.getTime(),
    }));
    return undefined;
  } catch (error) {
    return error ?? new Error('the sink rejected with nothing');
  } finally {
    clearTimeout(timer);
  }
}

/** Records a failed delivery; resolves whether the event is now dead. */
async function recordFailure(
  config: RelayConfig,
  event: PendingEvent,
  failure: unknown,
  control: BatchControl,
): Promise<boolean> {
  const attempts = event.attempts + 1;
  const error = shortText(failure);
  const dead =
    attempts >= config.maxAttempts || (failure as { permanent?: unknown }).permanent === true;
  const retryAt = dead ? undefined : new Date(Date.now() + retryDelay(attempts, config.backoff));
  const message = {
    id: event.id,
    tenant: event.tenant,
    plantId: event.plantId,
    attempts,
    error,
    retryAt,
  };
  publish(dead ? 'dead' : 'failed', () => message);
  config.logger?.warn(
    `plantstore events: delivery of event ${event.id} (plant ${event.plantId}) failed, attempt ` +
      `${attempts}: ${error}; ` +
      (retryAt === undefined
        ? 'the event is dead: list it with relay.dead(), send it again with relay.redrive()'
        : `retry at ${retryAt.toISOString()}`),
  );
  try {
    await config.outbox.failed(event.id, { attempts, error, retryAt });
  } catch (outboxError) {
    // Not recorded: the event stays due as it was and is sent again next round.
    control.report('failed', outboxError);
  }
  return dead;
}

/**
 * A failure's message on one line, cut short: what the outbox keeps and the log shows.
 *
 * @param error - anything thrown
 * @returns the text
 */
export function shortText(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.replace(/\s+/gu, ' ');
  return line.length > MAX_ERROR ? `${line.slice(0, MAX_ERROR)}…` : line;
}

import { abortError } from '../store-kit/abort-error';
import { DeliveryError } from './event-sink';
import { boundedWait, STORE_TIMEOUT_MS } from '../store-kit/store-timeout';
import { underWay } from '../store-kit/under-way';

// What every sink does around its one delivery, written once for the shipped sinks and for yours:
// the relay's signal honoured at once, no delivery after `close()`, and `close()` waiting for those
// under way. A delivery abandoned on an abort may still land: the relay hands the event again, and
// consumers dedupe by its id (at least once).

/** The close gate of one sink. */
export interface SinkGate {
  /** True once `close()` was called. */
  readonly closed: boolean;
  /**
   * Runs one delivery: not at all when `signal` has fired or the sink is closed; rejects with the
   * abort's error as soon as `signal` fires, while the delivery itself goes on to its end.
   */
  send(signal: AbortSignal, deliver: () => Promise<void>): Promise<void>;
  /**
   * Refuses new deliveries, then waits (at most twice {@link STORE_TIMEOUT_MS}) for those under
   * way, then for `drain`, the sink's own clean-up. A second call settles with the first.
   */
  close(drain?: () => Promise<void>): Promise<void>;
}

/**
 * The gate a sink is built around: the relay's `AbortSignal` followed, `close()` idempotent,
 * bounded, and waiting for the deliveries under way.
 *
 * @param what - the sink, as its messages name it: `The AMQP sink`
 * @returns the gate
 * @example
 * ```ts
 * const gate = sinkGate('The Kafka sink');
 * const sink = {
 *   send: (event: PendingEvent, signal: AbortSignal) =>
 *     gate.send(signal, () => producer.send({ topic, messages: [{ key: event.id, value: event.body }] })),
 *   close: () => gate.close(),
 * };
 * ```
 */
export function sinkGate(what: string): SinkGate {
  const calls = underWay();
  let closing: Promise<void> | undefined;

  return {
    get closed() {
      return closing !== undefined;
    },
    send(signal, deliver) {
      if (signal.aborted) return Promise.reject(abortError(signal));
      if (closing !== undefined) return Promise.reject(new DeliveryError(`${what} is closed.`));
      const delivery = calls.track(Promise.resolve().then(deliver));
      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(abortError(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        delivery.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
      });
    },
    close(drain) {
      closing ??= boundedWait(calls.settled(drain), 2 * STORE_TIMEOUT_MS).then(() => undefined);
      return closing;
    },
  };
}

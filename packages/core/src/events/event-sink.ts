import type { PendingEvent } from './outbox';

/**
 * Where the relay delivers events: a webhook, a broker, a stream. `send` resolves only once the
 * receiver confirmed the event (a 2xx, a publisher confirm, an acknowledged publish); the relay
 * marks it delivered only then. It rejects for a failure, which the relay retries with back-off,
 * and follows `signal`, which fires when the relay's per-send time-out passes or it stops.
 *
 * @example
 * ```ts
 * const sink: EventSink = {
 *   async send(event, signal) {
 *     const answer = await fetch(url, { method: 'POST', body: event.body, signal });
 *     if (!answer.ok) throw new DeliveryError(`HTTP ${answer.status}`);
 *   },
 * };
 * ```
 */
export interface EventSink {
  /** Delivers one event; resolves once the receiver confirmed it. */
  send(event: PendingEvent, signal: AbortSignal): Promise<void>;
  /** Releases what the sink holds (a connection, a channel); the relay's `stop()` does not call it. */
  close?(): Promise<void>;
}

/**
 * A delivery that failed, as a sink reports it: `message` is short and holds no secret (a status, a
 * broker's reply code), the relay keeps it as the event's `lastError`. `permanent` failures (a
 * webhook's 410 Gone) make the event dead at once instead of retrying it.
 *
 * @example
 * ```ts
 * throw new DeliveryError('HTTP 410', { permanent: true });
 * ```
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  /** Retrying cannot help: the event is dead at once (listed by `dead()`, re-drivable). */
  readonly permanent: boolean;

  constructor(message: string, options: { permanent?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.permanent = options.permanent === true;
  }
}

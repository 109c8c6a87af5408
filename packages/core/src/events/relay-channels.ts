import type { Channel } from 'node:diagnostics_channel';
import { nodeBuiltin } from '../common/node-builtin';

/**
 * The `node:diagnostics_channel` names the relay publishes on. Nothing is built while nobody
 * subscribes; on a runtime without the module, nothing is published.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * subscribe(EVENT_CHANNELS.delivered, (message) => metrics.observe((message as EventDelivered).lagMs));
 * ```
 */
export const EVENT_CHANNELS = Object.freeze({
  /** {@link EventDelivered}: the sink confirmed an event. */
  delivered: 'plantstore:event:delivered',
  /** {@link EventFailed}: a delivery failed; the event is due again at `retryAt`. */
  failed: 'plantstore:event:failed',
  /** {@link EventFailed} without `retryAt`: the event is dead. */
  dead: 'plantstore:event:dead',
  /** {@link RelayFailure}: the outbox failed (the relay goes on at its next round). */
  error: 'plantstore:event:error',
});

/** What `plantstore:event:delivered` carries. */
export interface EventDelivered {
  readonly id: string;
  readonly tenant: string;
  readonly plantId: bigint;
  /** Failed deliveries before this one. */
  readonly attempts: number;
  /** Milliseconds from the event's `time` (the create) to the sink's confirmation. */
  readonly lagMs: number;
}

/** What `plantstore:event:failed` and `plantstore:event:dead` carry. */
export interface EventFailed {
  readonly id: string;
  readonly tenant: string;
  readonly plantId: bigint;
  /** Failed deliveries, this one included. */
  readonly attempts: number;
  readonly error: string;
  /** When it is due again; `undefined` when it is dead. */
  readonly retryAt: Date | undefined;
}

/** What `plantstore:event:error` carries. */
export interface RelayFailure {
  /** The outbox call that failed: `lease`, `due`, `delivered`, `failed`, `release`. */
  readonly operation: string;
  readonly error: string;
}

type Name = keyof typeof EVENT_CHANNELS;
let channels: Partial<Record<Name, Channel | null>> | undefined;

/**
 * Publishes `message` on the relay's channel `name`, when someone subscribes.
 *
 * @param name - which channel
 * @param message - what to publish, built only when someone listens
 */
export function publish(name: Name, message: () => object): void {
  channels ??= {};
  let channel = channels[name];
  if (channel === undefined) {
    channel = nodeBuiltin('node:diagnostics_channel')?.channel(EVENT_CHANNELS[name]) ?? null;
    channels[name] = channel;
  }
  if (channel?.hasSubscribers === true) channel.publish(message());
}

// `@plantstore/core/events`: delivering the `plant.created` events a store writes with its plants
// (the service's `events` option): the relay, the webhook sink, and the shapes a sink or an outbox
// is built against. Named exports only; `entries.test.ts` locks the list.

export { eventRelay } from '../events/event-relay';
export type { EventRelay, RelayRound } from '../events/event-relay';
export type { EventRelayOptions, RelayTuning } from '../events/relay-options';
export type { RoundCounts } from '../events/deliver-batch';
export { DeliveryError } from '../events/event-sink';
export type { EventSink } from '../events/event-sink';
export { webhookSink } from '../events/webhook-sink';
export type { WebhookSinkOptions } from '../events/webhook-sink';
export { EVENT_CHANNELS } from '../events/relay-channels';
export type { EventDelivered, EventFailed, RelayFailure } from '../events/relay-channels';
export { PLANT_CREATED } from '../events/cloud-event';
// The outbox's shapes (`PendingEvent`, `EventOutbox`, …) are on `@plantstore/core/store-kit`, the
// entry of those who build against them: one entry per name.

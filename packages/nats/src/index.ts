// `@plantstore/nats`: the relay's sink for NATS JetStream (acknowledged, deduplicated publishes).

export { CLOUDEVENTS_JSON, natsSink } from './nats-sink';
export type { NatsSink } from './nats-sink';
export type { NatsSinkOptions } from './options';

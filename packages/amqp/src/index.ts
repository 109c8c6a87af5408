// `@plantstore/amqp`: the relay's sink for RabbitMQ (AMQP 0-9-1, publisher confirms).

export { amqpSink } from './amqp-sink';
export type { AmqpSink } from './amqp-sink';
export { CLOUDEVENTS_JSON } from './options';
export type { AmqpSinkOptions } from './options';

import { DeliveryError } from '@plantstore/core/events';
import { sinkGate, type PendingEvent } from '@plantstore/core/store-kit';
import { followChannel, openChannel, type SinkChannel } from './confirm-channel';
import { amqpSinkSettings, CLOUDEVENTS_JSON, type AmqpSinkOptions } from './options';

/** A sink the relay hands each `plant.created` event to, published on RabbitMQ with publisher confirms. */
export interface AmqpSink {
  /**
   * Publishes `event` (persistent, `messageId` its id, the CloudEvent as the body) and resolves once
   * the broker confirmed it; rejects on a nack, a returned (unroutable) message, a closed channel or
   * connection, and as soon as `signal` fires.
   */
  send(event: PendingEvent, signal: AbortSignal): Promise<void>;
  /** Refuses new sends, waits for those under way, and closes the channel the sink opened. */
  close(): Promise<void>;
}

/**
 * A sink for the relay that publishes each event to a RabbitMQ exchange and resolves only on the
 * broker's confirm: structured CloudEvents (`content-type: application/cloudevents+json`),
 * `deliveryMode: 2`, `messageId` = the event id, so consumers dedupe by it.
 *
 * @param options - `connection` (the sink opens its confirm channel) or `channel` (yours), the exchange, the routing key
 * @returns the sink
 * @throws TypeError naming the option, when the options are not usable
 * @example
 * ```ts
 * import amqp from 'amqplib';
 * import { amqpSink } from '@plantstore/amqp';
 *
 * const connection = await amqp.connect('amqp://127.0.0.1');
 * const sink = amqpSink({ connection, exchange: 'plants' });
 * ```
 */
export function amqpSink(options: AmqpSinkOptions): AmqpSink {
  const settings = amqpSinkSettings(options);
  const gate = sinkGate('The AMQP sink');
  const { source } = settings;
  let current: Promise<SinkChannel> | undefined;

  // The sink's own channel is opened on the first send, and again after it closed (a broker error
  // closes a channel); the app's channel is followed as it is.
  const channel = (): Promise<SinkChannel> => {
    if (current !== undefined) return current;
    const forget = (): void => void (current = undefined);
    current =
      'channel' in source
        ? Promise.resolve(followChannel(source.channel, false, forget))
        : openChannel(source.connection, forget);
    current.catch(forget);
    return current;
  };

  const publish = (followed: SinkChannel, event: PendingEvent): Promise<void> =>
    new Promise((resolve, reject) => {
      const content = Buffer.from(event.body, 'utf8');
      const properties = {
        persistent: true,
        mandatory: settings.mandatory,
        messageId: event.id,
        contentType: CLOUDEVENTS_JSON,
        type: event.type,
        timestamp: Math.floor(event.time.getTime() / 1000),
      };
      followed.channel.publish(
        settings.exchange,
        settings.routingKey(event),
        content,
        properties,
        (error) => {
          if (followed.wasReturned(event.id)) {
            reject(
              new DeliveryError(`The broker returned event ${event.id}: no queue is bound for it.`),
            );
          } else if (error !== null && error !== undefined) {
            reject(
              new DeliveryError(`The broker did not confirm event ${event.id}.`, { cause: error }),
            );
          } else {
            resolve();
          }
        },
      );
    });

  return {
    send: (event, signal) => gate.send(signal, async () => publish(await channel(), event)),
    close: () =>
      gate.close(async () => {
        const followed = await current?.catch(() => undefined);
        current = undefined;
        await followed?.release();
      }),
  };
}

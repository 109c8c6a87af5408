import { jetstream as jetstreamOf, type JetStreamClient } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import { sinkGate, type PendingEvent } from '@plantstore/core/store-kit';
import { natsSinkSettings, type NatsSinkOptions } from './options';

/** The CloudEvents NATS binding's structured mode: the whole event is the payload, in this type. */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json; charset=utf-8';

/** A sink the relay hands each `plant.created` event to, published on NATS JetStream. */
export interface NatsSink {
  /**
   * Publishes `event` with `Nats-Msg-Id` its id and resolves on the stream's acknowledgement (a
   * duplicate within the stream's window is acknowledged too, and stored once); rejects when no
   * stream acknowledges it, on a closed connection, and as soon as `signal` fires.
   */
  send(event: PendingEvent, signal: AbortSignal): Promise<void>;
  /** Refuses new sends and waits for those under way. The connection stays yours. */
  close(): Promise<void>;
}

/**
 * A sink for the relay that publishes each event to NATS JetStream and resolves only on the
 * stream's acknowledgement. The event id is the message id, so JetStream drops a redelivery within
 * its duplicate window, and consumers dedupe by it beyond.
 *
 * @param options - `connection` or `jetstream`, the subject, the acknowledgement's time-out
 * @returns the sink
 * @throws TypeError naming the option, when the options are not usable
 * @example
 * ```ts
 * import { connect } from '@nats-io/transport-node';
 * import { natsSink } from '@plantstore/nats';
 *
 * const connection = await connect({ servers: '127.0.0.1:4222' });
 * const sink = natsSink({ connection, subject: 'plants.created' });
 * ```
 */
export function natsSink(options: NatsSinkOptions): NatsSink {
  const settings = natsSinkSettings(options);
  const { source } = settings;
  const gate = sinkGate('The NATS sink');
  let client: JetStreamClient | undefined;
  const js = (): JetStreamClient =>
    (client ??= 'jetstream' in source ? source.jetstream : jetstreamOf(source.connection));

  const publish = async (event: PendingEvent): Promise<void> => {
    const header = headers();
    header.set('Content-Type', CLOUDEVENTS_JSON);
    await js().publish(settings.subject(event), event.body, {
      msgID: event.id,
      headers: header,
      timeout: settings.timeout,
    });
  };

  return {
    send: (event, signal) => gate.send(signal, () => publish(event)),
    close: () => gate.close(),
  };
}

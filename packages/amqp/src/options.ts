import type { PendingEvent } from '@plantstore/core/store-kit';
import type { ChannelModel, ConfirmChannel } from 'amqplib';

/** The CloudEvents AMQP binding's structured mode: the whole event is the body, in this type. */
export const CLOUDEVENTS_JSON = 'application/cloudevents+json; charset=utf-8';

/** What {@link amqpSink} publishes to, and on what. */
export type AmqpSinkOptions = (
  | {
      /**
       * Your connection (`await amqp.connect(url)`): the sink opens one confirm channel on it when
       * it first sends, opens another after that one closed, and closes its own at `close()`.
       */
      readonly connection: Pick<ChannelModel, 'createConfirmChannel'>;
      readonly channel?: undefined;
    }
  | {
      /** Your confirm channel (`await connection.createConfirmChannel()`): the sink never closes it. */
      readonly channel: ConfirmChannel;
      readonly connection?: undefined;
    }
) & {
  /** The exchange each event is published to; it must exist (a missing one closes the channel). */
  readonly exchange: string;
  /** The routing key: a string, or one per event. Default `plant.created`. */
  readonly routingKey?: string | ((event: PendingEvent) => string) | undefined;
  /**
   * Publish as `mandatory` (default true): an event no queue is bound for comes back from the
   * broker, and its send fails rather than being confirmed as dropped.
   */
  readonly mandatory?: boolean | undefined;
};

/** The options once checked, with their defaults. */
export interface AmqpSinkSettings {
  readonly source:
    | { readonly connection: Pick<ChannelModel, 'createConfirmChannel'> }
    | { readonly channel: ConfirmChannel };
  readonly exchange: string;
  readonly routingKey: (event: PendingEvent) => string;
  readonly mandatory: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const received = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/**
 * Checks {@link AmqpSinkOptions} when the sink is made, so a misconfiguration fails at start-up.
 *
 * @param options - the options as given
 * @returns the settings
 * @throws TypeError naming the option and what it received
 * @example
 * ```ts
 * const settings = amqpSinkSettings({ connection, exchange: 'plants' });
 * ```
 */
export function amqpSinkSettings(given: AmqpSinkOptions): AmqpSinkSettings {
  // Checked as a JavaScript caller may pass anything.
  const options: unknown = given;
  if (!isObject(options)) {
    throw new TypeError(`amqpSink: options must be an object, received ${received(options)}.`);
  }
  const { connection, channel, exchange, routingKey, mandatory } = options;
  const hasConnection =
    isObject(connection) && typeof connection.createConfirmChannel === 'function';
  const hasChannel =
    isObject(channel) &&
    typeof channel.publish === 'function' &&
    typeof channel.waitForConfirms === 'function';
  if (hasConnection === hasChannel) {
    throw new TypeError(
      'amqpSink: give exactly one of `connection` (an amqplib connection) or `channel` (a confirm channel from createConfirmChannel()).',
    );
  }
  if (typeof exchange !== 'string') {
    throw new TypeError(`amqpSink: \`exchange\` must be a string, received ${received(exchange)}.`);
  }
  if (
    routingKey !== undefined &&
    typeof routingKey !== 'string' &&
    typeof routingKey !== 'function'
  ) {
    throw new TypeError(
      `amqpSink: \`routingKey\` must be a string or a function, received ${received(routingKey)}.`,
    );
  }
  if (mandatory !== undefined && typeof mandatory !== 'boolean') {
    throw new TypeError(
      `amqpSink: \`mandatory\` must be a boolean, received ${received(mandatory)}.`,
    );
  }
  const key = given.routingKey ?? 'plant.created';
  return {
    source:
      given.channel === undefined ? { connection: given.connection } : { channel: given.channel },
    exchange,
    routingKey: typeof key === 'function' ? key : () => key,
    mandatory: mandatory ?? true,
  };
}

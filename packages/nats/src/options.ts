import type { JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { PendingEvent } from '@plantstore/core/store-kit';

/** What {@link natsSink} publishes to, and through what. */
export type NatsSinkOptions = (
  | {
      /** Your connection (`await connect({ servers })`): the sink publishes through `jetstream(connection)`. */
      readonly connection: NatsConnection;
      readonly jetstream?: undefined;
    }
  | {
      /** Your JetStream client (`jetstream(connection, options)`), for a domain or API prefix of your own. */
      readonly jetstream: JetStreamClient;
      readonly connection?: undefined;
    }
) & {
  /**
   * The subject each event is published on: a string, or one per event (say
   * `plants.created.${event.tenant}`). A stream must capture it: a subject no stream captures fails
   * the send.
   */
  readonly subject: string | ((event: PendingEvent) => string);
  /** Milliseconds to wait for the stream's acknowledgement. Default 5000. */
  readonly timeout?: number | undefined;
};

/** The options once checked. */
export interface NatsSinkSettings {
  readonly source:
    { readonly connection: NatsConnection } | { readonly jetstream: JetStreamClient };
  readonly subject: (event: PendingEvent) => string;
  readonly timeout: number;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const received = (value: unknown): string => (value === null ? 'null' : typeof value);

/**
 * Checks {@link NatsSinkOptions} when the sink is made, so a misconfiguration fails at start-up.
 *
 * @param options - the options as given
 * @returns the settings
 * @throws TypeError naming the option and what it received
 * @example
 * ```ts
 * const settings = natsSinkSettings({ connection, subject: 'plants.created' });
 * ```
 */
export function natsSinkSettings(given: NatsSinkOptions): NatsSinkSettings {
  // Checked as a JavaScript caller may pass anything.
  const options: unknown = given;
  if (!isObject(options)) {
    throw new TypeError(`natsSink: options must be an object, received ${received(options)}.`);
  }
  const { connection, jetstream, subject, timeout = 5_000 } = options;
  const hasConnection = isObject(connection) && typeof connection.request === 'function';
  const hasJetStream = isObject(jetstream) && typeof jetstream.publish === 'function';
  if (hasConnection === hasJetStream) {
    throw new TypeError(
      'natsSink: give exactly one of `connection` (a NATS connection) or `jetstream` (a JetStream client).',
    );
  }
  if (typeof subject !== 'string' && typeof subject !== 'function') {
    throw new TypeError(
      `natsSink: \`subject\` must be a string or a function, received ${received(subject)}.`,
    );
  }
  if (typeof subject === 'string' && !/^[^\s*>]+$/u.test(subject)) {
    throw new TypeError(
      `natsSink: \`subject\` must be a subject with no spaces or wildcards, received "${subject}".`,
    );
  }
  if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < 1) {
    throw new TypeError(
      `natsSink: \`timeout\` must be a whole number of milliseconds, received ${String(timeout)}.`,
    );
  }
  const { subject: named } = given;
  return {
    source:
      given.jetstream === undefined
        ? { connection: given.connection }
        : { jetstream: given.jetstream },
    subject: typeof named === 'function' ? named : () => named,
    timeout,
  };
}

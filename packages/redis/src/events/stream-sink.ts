import {
  checkKnownOptions,
  describeValue,
  optionError,
  wholeNumber,
} from '@plantstore/core/adapter';
import { abortError, type PendingEvent } from '@plantstore/core/store-kit';
import { redisRunner, type RedisClient } from '../clients';
import { text } from '../plant-hash';

/** Options of {@link redisStreamSink}. */
export interface RedisStreamSinkOptions {
  /** A connected node-redis 5/6 client or cluster, or an ioredis 5 Redis or Cluster; the caller closes it. */
  readonly client: RedisClient;
  /** The stream the events are added to. */
  readonly stream: string;
  /** Trims the stream to about this many entries on each add (`MAXLEN ~`). Default: never trimmed. */
  readonly maxLen?: number | undefined;
}

/** A sink of the event relay that adds each event to a Redis stream. */
export interface RedisStreamSink {
  /** Adds `event` to the stream; resolves once Redis answered with the entry's id. */
  send(event: PendingEvent, signal: AbortSignal): Promise<void>;
}

const SINK_OPTIONS: ReadonlySet<string> = new Set(['client', 'stream', 'maxLen']);
const MAX_LEN = { min: 1, max: Number.MAX_SAFE_INTEGER };

/**
 * An event sink on Redis Streams, for consumers in groups (`XREADGROUP`, `XACK`). Each event is one
 * `XADD` with the fields `id` (the CloudEvents id: consumers dedupe by it), `type`, `subject` (the
 * plant id, exact decimal text), `tenant` (`''` when tenants are off), `time` (ISO 8601) and `data`
 * (the whole CloudEvents JSON text). The add is confirmed by its reply, the entry's id; a failure
 * or an abort rejects, and the relay tries again later: delivery is at least once.
 *
 * @param options - the client, the stream, and optionally `maxLen`
 * @returns the sink
 * @throws TypeError when `client` is not a Redis client or an option is not what it must be
 * @example
 * ```ts
 * const sink = redisStreamSink({ client, stream: 'plants:events', maxLen: 1_000_000 });
 * ```
 */
export function redisStreamSink(options: RedisStreamSinkOptions): RedisStreamSink {
  checkKnownOptions('redisStreamSink', options, SINK_OPTIONS);
  const runner = redisRunner(options.client, 'redisStreamSink');
  const { stream } = options;
  if (typeof stream !== 'string' || stream === '') {
    optionError('redisStreamSink', 'stream', 'must be a non-empty string', describeValue(stream));
  }
  const maxLen = wholeNumber('redisStreamSink', 'maxLen', options.maxLen, MAX_LEN, 0);
  const trim = maxLen > 0 ? ['MAXLEN', '~', String(maxLen)] : [];

  return {
    async send(event, signal) {
      if (signal.aborted) throw abortError(signal);
      const fields = ['id', event.id, 'type', event.type, 'subject', event.plantId.toString()];
      fields.push('tenant', event.tenant, 'time', event.time.toISOString(), 'data', event.body);
      const added = runner.command(stream, ['XADD', stream, ...trim, '*', ...fields]);
      let stop = (): void => undefined;
      const aborted = new Promise<never>((_, reject) => {
        stop = () => reject(abortError(signal));
        signal.addEventListener('abort', stop, { once: true });
      });
      try {
        const entry = await Promise.race([added, aborted]);
        if (text(entry) === undefined)
          throw new Error('Redis did not answer XADD with an entry id.');
      } finally {
        signal.removeEventListener('abort', stop);
        added.catch(() => undefined);
      }
    },
  };
}

import { ServiceUnavailableError, type ReplayStore } from '@plantstore/core';
import { ErrorReply } from 'redis';

/**
 * The client the store needs, typed by what it calls (see `Redis` in ./redis-store): any node-redis
 * 5 or 6 client fits.
 */
export interface RedisScripting {
  withAbortSignal(signal: AbortSignal): {
    eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  };
}

/** Options of {@link redisReplayStore}. */
export interface RedisReplayStoreOptions {
  readonly client: RedisScripting;
  /** Put before each key. Default `dpop:`. */
  readonly prefix?: string | undefined;
}

// One script is one atomic step in Redis. It holds `expiresAt` as the value and compares it with the
// service's `now`, never Redis's clock; the relative TTL only cleans up keys already expired by then.
// It runs to `expiresAt`, which holds a grace for clocks that disagree: counted from a caller running
// ahead, it still ends after the last moment an instance behind could accept the proof.
const REMEMBER = `local held = tonumber(redis.call('GET', KEYS[1]))
if held and held > tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
return 1`;

/**
 * A DPoP {@link ReplayStore} on Redis, written against the public interface only: every instance of
 * the service that shares the Redis refuses a proof any of them has seen.
 *
 * @param options - the client and the key prefix
 * @returns the store
 * @example
 * ```ts
 * const replayStore = redisReplayStore({ client });
 * ```
 */
export function redisReplayStore({
  client,
  prefix = 'dpop:',
}: RedisReplayStoreOptions): ReplayStore {
  return {
    async remember(key, expiresAt, { now, signal }) {
      signal.throwIfAborted();
      const ttl = String(Math.max(1, Math.ceil(expiresAt - now)));
      try {
        const answer = await client.withAbortSignal(signal).eval(REMEMBER, {
          keys: [`${prefix}${key}`],
          arguments: [String(expiresAt), String(now), ttl],
        });
        return answer === 1;
      } catch (error) {
        signal.throwIfAborted();
        if (error instanceof ErrorReply) throw error; // Redis said no: a fault, 500
        throw new ServiceUnavailableError('replay_store_unavailable', 'Redis is unavailable.', {
          cause: error,
        });
      }
    },
  };
}

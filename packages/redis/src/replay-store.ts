import type { ReplayContext, ReplayStore } from '@plantstore/core';
import { checkKnownOptions } from '@plantstore/core/adapter';
import {
  gatedRemember,
  readyTimeoutOption,
  storeGate,
  type RememberStep,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { redisRunner, type RedisClient } from './clients';
import { mapRedisError } from './map-error';
import { prefixOption } from './options';
import { REMEMBER_KEY } from './scripts';

/** Options of {@link redisReplayStore}. */
export interface RedisReplayStoreOptions extends StoreTimeoutOptions {
  /** The same clients as `redisStore` takes; the plant store's client serves both. */
  readonly client: RedisClient;
  /** Put before each key, `${prefix}{${key}}`. Default `dpop:`; no braces. */
  readonly prefix?: string | undefined;
}

/**
 * A {@link ReplayStore} on Redis; `ready()` sends a PING, answered within `readyTimeout`, and
 * `close()` refuses new calls (503) and waits for those under way.
 */
export interface RedisReplayStore extends Omit<ReplayStore, 'ready' | 'close'>, StoreLifecycle {}

const REPLAY_OPTIONS: ReadonlySet<string> = new Set(['client', 'prefix', 'readyTimeout']);

/**
 * A DPoP {@link ReplayStore} on Redis (RFC 9449 §11.1), shared by every instance of the service: one
 * Lua script per key, atomic on the server, so of concurrent calls with one key exactly one resolves
 * `true`. Each key holds its `expiresAt`, judged against the service's clock (`context.now`), with a
 * TTL that deletes it once it cannot be replayed. Outages reject with
 * `ServiceUnavailableError('replay_store_unavailable')` (503), as `redisStore`'s do.
 *
 * @param options - the client and, optionally, the key prefix
 * @returns the store
 * @throws TypeError when `client` is not a Redis client or an option is not what it must be
 * @example
 * ```ts
 * const replayStore = redisReplayStore({ client });
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function redisReplayStore(options: RedisReplayStoreOptions): RedisReplayStore {
  checkKnownOptions('redisReplayStore', options, REPLAY_OPTIONS);
  const runner = redisRunner(options.client, 'redisReplayStore');
  const prefix = prefixOption('redisReplayStore', options.prefix, 'dpop:');
  const gate = storeGate({
    code: 'replay_store_unavailable',
    what: 'The Redis replay store',
    readyTimeout: readyTimeoutOption('redisReplayStore', options.readyTimeout),
    mapError: (error) => mapRedisError(error, 'replay_store_unavailable'),
  });

  const remember: RememberStep<ReplayContext> = async (key, expiresAt, context, cancelled) => {
    const ttl = Math.max(1, Math.ceil(expiresAt - context.now));
    const args = [String(Math.ceil(expiresAt)), String(Math.floor(context.now)), String(ttl)];
    return (await runner.eval(REMEMBER_KEY, `${prefix}{${key}}`, args, cancelled)) === 1;
  };

  return {
    remember: gatedRemember(gate, remember),
    ready: () => gate.ready(() => runner.ping()),
    close: () => gate.close(),
  };
}

import { ServiceUnavailableError, type PlantStore } from '@plantstore/core';
import { storedPlant, storeGate } from '@plantstore/core/store-kit';
import { ErrorReply } from 'redis';

/** The commands the store sends, as node-redis types them. */
export interface RedisCommands {
  set(key: string, value: string, options: { condition: 'NX' }): Promise<string | null>;
  get(key: string): Promise<string | null>;
  ping(): Promise<string>;
}

/**
 * The client the store needs, typed by what it calls: any node-redis 5 or 6 client fits, RESP 2 or
 * 3. `ReturnType<typeof createClient>` and `RedisClientType` name one major's defaults of the
 * client's type parameters, which redis 6 changed, so a client from `createClient()` fits only one.
 */
export interface Redis extends RedisCommands {
  withAbortSignal(signal: AbortSignal): RedisCommands;
}

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** Connected by the caller, who also closes it. */
  readonly client: Redis;
  /** Put before each id to make its key. Default `plant:`. */
  readonly prefix?: string | undefined;
}

/**
 * A {@link PlantStore} on Redis, written against the public interface only. Each plant is one key,
 * `${prefix}${tenant}:${id}`, holding the JSON of the plant and its audit fields (owner, client,
 * creation time, token id); the key ends with the exact decimal id.
 * `SET … NX` is the one atomic step: of concurrent inserts of an id, exactly one sets the key.
 *
 * @param options - the client and the key prefix
 * @returns the store
 * @example
 * const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const plants = createPlantService({ store: redisStore({ client }), auth });
 */
export function redisStore({ client, prefix = 'plant:' }: RedisStoreOptions): PlantStore {
  // The kit's gate: close() refuses new creates with a 503 and waits for those under way.
  const gate = storeGate({ code: 'store_unavailable', what: 'The example Redis store' });
  return {
    insert: (plant, context) =>
      gate.call(context, async () => {
        const { signal } = context;
        // The id is digits after the last `:`, so no tenant can spell another tenant's key.
        const { id, createdAt, ...fields } = plant;
        const key = `${prefix}${plant.tenant}:${id}`;
        const value = JSON.stringify({ ...fields, createdAt: createdAt.toISOString() });
        // A command not yet written to the socket is dropped when the signal fires; one already
        // sent runs to its end, and a single SET is whole or absent either way.
        const redis = client.withAbortSignal(signal);
        if ((await call(redis.set(key, value, { condition: 'NX' }), signal)) === 'OK') {
          return { created: true };
        }
        const stored = await call(redis.get(key), signal);
        // Plants are written once and never deleted, so the key that refused the SET is still there.
        if (stored === null) throw new Error(`redisStore: ${key} vanished after SET NX refused it`);
        // The kit checks the stored fields (and the audit fields the owner rule reads) once.
        const parsed = JSON.parse(stored) as Record<string, unknown>;
        return { created: false, existing: storedPlant({ ...parsed, id }, id) };
      }),
    ready: () => gate.ready(() => call(client.ping(), new AbortController().signal)),
    close: () => gate.close(),
  };
}

/** Settles like `command`; a failure to reach Redis becomes a 503 the client may retry. */
async function call<T>(command: Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await command;
  } catch (error) {
    signal.throwIfAborted(); // the core answers its own time-out
    // Redis answered with an error (WRONGTYPE, …): a fault, not an outage; the core answers 500.
    if (error instanceof ErrorReply) throw error;
    // Anything else is the connection: closed, offline, refused, reset or timed out.
    throw new ServiceUnavailableError('store_unavailable', 'Redis is unavailable.', {
      cause: error,
    });
  }
}

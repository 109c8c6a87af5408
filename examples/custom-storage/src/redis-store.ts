import { ServiceUnavailableError, type NewPlant, type PlantStore } from '@plantstore/core';
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
 * `${prefix}${id}`, holding the JSON of `{ name, tag }`; the key text is the exact decimal id.
 * `SET … NX` is the one atomic step: of concurrent inserts of an id, exactly one sets the key.
 *
 * @param options - the client and the key prefix
 * @returns the store
 * @example
 * const client = await createClient({ url: 'redis://127.0.0.1:6379' }).connect();
 * const plants = createPlantService({ store: redisStore({ client }), auth });
 */
export function redisStore({ client, prefix = 'plant:' }: RedisStoreOptions): PlantStore {
  return {
    async insert(plant, { signal }) {
      signal.throwIfAborted();
      const key = `${prefix}${plant.id}`;
      const { name, tag } = plant;
      const value = JSON.stringify(tag === undefined ? { name } : { name, tag });
      // A command not yet written to the socket is dropped when the signal fires; one already
      // sent runs to its end, and a single SET is whole or absent either way.
      const redis = client.withAbortSignal(signal);
      if ((await call(redis.set(key, value, { condition: 'NX' }), signal)) === 'OK') {
        return { created: true };
      }
      const stored = await call(redis.get(key), signal);
      // Plants are written once and never deleted, so the key that refused the SET is still there.
      if (stored === null) throw new Error(`redisStore: ${key} vanished after SET NX refused it`);
      return { created: false, existing: parsePlant(plant.id, stored) };
    },
    async ready() {
      await call(client.ping(), new AbortController().signal);
    },
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

/** The stored JSON back as a plant, under the id it was asked for (the key holds no other). */
function parsePlant(id: bigint, text: string): NewPlant {
  const { name, tag } = JSON.parse(text) as { name?: unknown; tag?: unknown };
  if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string')) {
    throw new Error(`redisStore: the value of plant ${id} is not {name, tag}`);
  }
  return tag === undefined ? { id, name } : { id, name, tag };
}

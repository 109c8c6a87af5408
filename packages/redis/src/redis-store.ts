import type { Cancellation, InsertResult, PlantRecord, PlantStore } from '@plantstore/core';
import type { EventOutbox, OutboxEvent } from '@plantstore/core/store-kit';
import { checkKnownOptions, optionalBoolean, wholeNumber } from '@plantstore/core/adapter';
import {
  readyTimeoutOption,
  storeGate,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import { redisRunner, type RedisClient } from './clients';
import { confirmWrite } from './confirm-write';
import { durabilityCheck, type ReadyContext } from './durability-check';
import { mapRedisError } from './map-error';
import { prefixOption } from './options';
import { plantOfHash } from './plant-hash';
import { DEFAULT_BUCKETS, plantKey } from './plant-key';
import { INSERT_PLANT } from './scripts';
import { bucketKeys, tagOfKey } from './events/outbox-keys';
import { redisOutbox } from './events/redis-outbox';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions extends StoreTimeoutOptions {
  /** A connected node-redis 5/6 client or cluster, or an ioredis 5 Redis or Cluster; the caller closes it. */
  readonly client: RedisClient;
  /** Put before each plant's key, `${prefix}{${bucket}}${tenant}:${id}`. Default `plant:`; no braces. */
  readonly prefix?: string | undefined;
  /**
   * How many hash-tag buckets the keys spread over (a Cluster's slots), 1 to 16384. Default 16.
   * Changing it moves every key: set it once.
   */
  readonly buckets?: number | undefined;
  /**
   * Replicas that must confirm a create before it is acknowledged (`WAIT n`, bounded by what is left
   * of the store time-out). Default 0: acknowledged once the master has it.
   */
  readonly waitReplicas?: number | undefined;
  /**
   * Acknowledge a create only once the server's own append-only file has it on disk (`WAITAOF 1 0`,
   * Redis 7.2+, `appendonly yes`), within what is left of the store time-out. Default false.
   */
  readonly waitAof?: boolean | undefined;
}

/**
 * A {@link PlantStore} on Redis. `ready()` sends a PING, answered within `readyTimeout` (default
 * 5 s), and, the first time, looks at what a 200 survives: it warns once, through the service's
 * logger, when a crash of the server can lose an acknowledged create, and rejects when `waitAof` is
 * set on a server that cannot run `WAITAOF`. `close()` refuses new creates (503) and waits for
 * those under way; it closes nothing the caller owns: quit the client after it.
 */
export interface RedisStore extends Omit<PlantStore, 'ready' | 'close' | 'outbox'>, StoreLifecycle {
  /** The events written with the plants (the service's `events` option), for the relay. */
  readonly outbox: EventOutbox;
  ready(context?: ReadyContext): Promise<void>;
}

const STORE_OPTIONS: ReadonlySet<string> = new Set([
  ...['client', 'prefix', 'buckets', 'waitReplicas', 'waitAof', 'readyTimeout'],
]);
const BUCKETS = { min: 1, max: 16_384 };
const REPLICAS = { min: 0, max: 100 };
const CREATED: InsertResult = Object.freeze({ created: true });

/**
 * A {@link PlantStore} on Redis, one server or a Cluster, through node-redis 5 or 6 or ioredis 5.
 * Each plant is one hash, `${prefix}{${bucket}}${tenant}:${id}` (the hash tag a bucket of 16 by
 * default, a hash of tenant and id, so that everything of a plant lives in one slot and plants
 * spread over a Cluster), with the fields `name`, `tag` (absent when the plant has none, so
 * `tag: ""` stays apart), `tenant`, `by` (the token's `sub`), `client`, `at` (epoch milliseconds) and
 * `jti`, each audit field absent when the token had none.
 *
 * `insert` is one Lua script, atomic on the server: it returns the stored hash when the key exists
 * and writes it otherwise, so the first write wins and the core compares the stored bytes with the
 * request. An insert whose time-out passes before it is handed to the client is never sent; one
 * already sent may still land (Redis cannot cancel a script), but it is not acknowledged: the client
 * got 503, and its retry is answered 200 as a replay since the stored plant is the same.
 *
 * With `waitReplicas: n`, a create is answered only after `WAIT n` confirms n replicas have it,
 * within what is left of the store time-out; fewer confirmations reject with a 503, and the plant may
 * then exist on the master (a retry replays it: 200). Unreachable servers, a cluster without a master
 * for the slot, a slot migrating and a failover in progress reject with
 * `ServiceUnavailableError('store_unavailable')` (503, `Retry-After`); other error replies, as they are (500).
 *
 * @param options - the client, and optionally the key prefix and `waitReplicas`
 * @returns the store
 * @throws TypeError when `client` is not a Redis client or an option is not what it must be
 * @example
 * ```ts
 * import { createClient } from 'redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const service = createPlantService({ store: redisStore({ client }), auth });
 * ```
 */
export function redisStore(options: RedisStoreOptions): RedisStore {
  checkKnownOptions('redisStore', options, STORE_OPTIONS);
  const runner = redisRunner(options.client, 'redisStore');
  const prefix = prefixOption('redisStore', options.prefix, 'plant:');
  // 0, the default: acknowledged once the master has the write.
  const replicas = wholeNumber('redisStore', 'waitReplicas', options.waitReplicas, REPLICAS, 0);
  const disk = optionalBoolean('redisStore', 'waitAof', options.waitAof);
  const buckets = wholeNumber('redisStore', 'buckets', options.buckets, BUCKETS, DEFAULT_BUCKETS);
  const durability = durabilityCheck(runner, disk);
  const gate = storeGate({
    code: 'store_unavailable',
    what: 'The Redis store',
    readyTimeout: readyTimeoutOption('redisStore', options.readyTimeout),
    mapError: (error) => mapRedisError(error, 'store_unavailable'),
  });

  const insert = async (
    plant: PlantRecord,
    event: OutboxEvent | undefined,
    cancelled: Cancellation,
  ): Promise<InsertResult> => {
    const key = plantKey(prefix, buckets, plant.tenant, plant.id);
    const hasTag = plant.tag !== undefined;
    const args = [
      plant.name,
      hasTag ? '1' : '0',
      plant.tag ?? '',
      plant.createdBy ?? '',
      plant.clientId ?? '',
      String(plant.createdAt.getTime()),
      plant.tokenId ?? '',
      plant.tenant,
    ];
    let keys: readonly string[] = [key];
    if (event !== undefined) {
      // The event goes to the stream of the plant's bucket: the script touches one slot.
      const { stream, index } = bucketKeys(tagOfKey(key));
      keys = [key, stream, index];
      const time = String(event.time.getTime());
      args.push(event.id, event.tenant, event.plantId.toString(), time, event.body);
    }
    const answer = await runner.eval(INSERT_PLANT, keys, args, cancelled);
    if (answer !== 1) return { created: false, existing: plantOfHash(plant.id, answer) };
    if (replicas > 0 || disk) await confirmWrite(runner, key, { replicas, disk }, cancelled);
    return CREATED;
  };

  return {
    insert: (plant, context) =>
      gate.call(context, (cancelled) => insert(plant, context.event, cancelled)),
    ready: (context) => gate.ready(() => runner.ping().then(() => durability(context))),
    close: () => gate.close(),
    outbox: redisOutbox({ runner, gate, prefix, buckets }),
  };
}

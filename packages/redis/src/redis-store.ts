import {
  cancellation,
  ServiceUnavailableError,
  type Cancellation,
  type InsertResult,
  type NewPlant,
  type PlantStore,
  type StoreContext,
} from '@plantstore/core';
import { checkKnownOptions, wholeNumber } from '@plantstore/core/adapter';
import { redisRunner, type RedisClient, type RedisRunner } from './clients';
import { pingWithin, redisCall } from './map-error';
import { prefixOption } from './options';
import { plantOfHash } from './plant-hash';
import { INSERT_PLANT } from './scripts';

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** A connected node-redis 5/6 client or cluster, or an ioredis 5 Redis or Cluster; the caller closes it. */
  readonly client: RedisClient;
  /** Put before each plant's key, `${prefix}{${id}}`. Default `plant:`; no braces. */
  readonly prefix?: string | undefined;
  /**
   * Replicas that must confirm a create before it is acknowledged (`WAIT n`, bounded by what is left
   * of the store time-out). Default 0: acknowledged once the master has it.
   */
  readonly waitReplicas?: number | undefined;
}

/** A {@link PlantStore} on Redis; `ready()` sends a PING. */
export interface RedisStore extends PlantStore {
  ready(): Promise<void>;
}

const STORE_OPTIONS: ReadonlySet<string> = new Set(['client', 'prefix', 'waitReplicas']);
const REPLICAS = { min: 0, max: 100 };
const CREATED: InsertResult = Object.freeze({ created: true });
// What `WAIT` may take when the context carries no deadline (one the service did not make): the
// core's default store time-out.
const FALLBACK_WAIT_MS = 5_000;

/**
 * A {@link PlantStore} on Redis, one server or a Cluster, through node-redis 5 or 6 or ioredis 5.
 * Each plant is one hash, `${prefix}{${id}}` (the id's exact decimal text as the hash tag, so that
 * everything of a plant lives in one slot), with the fields `name`, `tag` (absent when the plant has
 * none, so `tag: ""` stays apart) and `by` (the principal's subject).
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

  const insert = async (
    plant: NewPlant,
    context: StoreContext,
    cancelled: Cancellation,
  ): Promise<InsertResult> => {
    const key = `${prefix}{${plant.id}}`;
    const hasTag = plant.tag !== undefined;
    const args = [plant.name, hasTag ? '1' : '0', plant.tag ?? '', context.principal.subject ?? ''];
    const answer = await runner.eval(INSERT_PLANT, key, args);
    if (answer !== 1) return { created: false, existing: plantOfHash(plant.id, answer) };
    if (replicas > 0) await confirm(runner, key, replicas, cancelled);
    return CREATED;
  };

  return {
    insert: (plant, context) =>
      redisCall('store_unavailable', context, (cancelled) =>
        insert(plant, context, cancelled ?? cancellation(context)),
      ),
    ready: () => pingWithin(() => runner.ping(), 'store_unavailable'),
  };
}

/** Waits for `replicas` to confirm the write to `key`, within what is left of the time-out. */
async function confirm(
  runner: RedisRunner,
  key: string,
  replicas: number,
  cancelled: Cancellation,
): Promise<void> {
  const left =
    cancelled.expiresAt === undefined
      ? FALLBACK_WAIT_MS
      : Math.floor(cancelled.expiresAt - performance.now());
  // WAIT 0 would block for ever; with nothing left, the core has answered 503 already.
  const acked = left >= 1 ? Number(await runner.wait(key, replicas, left)) : 0;
  if (acked >= replicas) return;
  throw new ServiceUnavailableError(
    'store_unavailable',
    `Redis confirmed the write on ${acked} of ${replicas} replicas in time; the plant may exist.`,
  );
}

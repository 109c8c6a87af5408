import { describeValue, optionError } from '@plantstore/core/adapter';
/**
 * A node-redis 5 or 6 client (`createClient()`), connected by the caller. Typed by what the store
 * calls, so that either major fits whatever its type parameters (RESP 2 or 3, modules, scripts).
 */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/** A node-redis 5 or 6 cluster client (`createCluster()`), connected by the caller. */
export interface NodeRedisClusterLike {
  sendCommand(
    firstKey: string | undefined,
    isReadonly: boolean | undefined,
    args: string[],
  ): Promise<unknown>;
  readonly masters: readonly unknown[];
}

/** An ioredis 5 `Redis` or `Cluster`, connected (or connecting) by the caller. */
export interface IoRedisLike {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  pipeline(): {
    exists(key: string): unknown;
    call(command: string, ...args: (string | number)[]): unknown;
    exec(): Promise<[Error | null, unknown][] | null>;
  };
  readonly isCluster?: boolean;
}

/** Any client the Redis stores accept. */
export type RedisClient = NodeRedisClientLike | NodeRedisClusterLike | IoRedisLike;

/** Which factory is asking, for messages. */
export type Factory = 'redisStore' | 'redisReplayStore';

/** The three commands the stores send, the same whichever client carries them. */
export interface RedisRunner {
  /** EVAL of `script` on `key` (routed to its slot's master on a Cluster). */
  eval(script: string, key: string, args: readonly string[]): Promise<unknown>;
  /** WAIT on the connection that carried the last write to `key`'s slot: the replicas that acked. */
  wait(key: string, replicas: number, timeoutMs: number): Promise<unknown>;
  /** PING, for readiness. */
  ping(): Promise<unknown>;
}

const isFunction = (value: unknown): boolean => typeof value === 'function';

/**
 * The runner for `client`, told apart by shape: ioredis has `call` and `pipeline`, a node-redis
 * cluster has `masters`.
 *
 * @throws TypeError when `client` is none of the clients the stores accept
 */
export function redisRunner(client: unknown, factory: Factory): RedisRunner {
  const shape = (client ?? {}) as Record<string, unknown>;
  if (isFunction(shape['call']) && isFunction(shape['pipeline'])) {
    return ioredisRunner(client as IoRedisLike);
  }
  if (isFunction(shape['sendCommand'])) {
    return 'masters' in shape
      ? clusterRunner(client as NodeRedisClusterLike)
      : clientRunner(client as NodeRedisClientLike);
  }
  return optionError(
    factory,
    'client',
    'must be a connected client of redis (createClient or createCluster) or ioredis (Redis or Cluster)',
    describeValue(client),
  );
}

const evalArgs = (script: string, key: string, args: readonly string[]): string[] => [
  'EVAL',
  script,
  '1',
  key,
  ...args,
];

function clientRunner(client: NodeRedisClientLike): RedisRunner {
  return {
    eval: (script, key, args) => client.sendCommand(evalArgs(script, key, args)),
    wait: (_key, replicas, timeoutMs) =>
      client.sendCommand(['WAIT', String(replicas), String(timeoutMs)]),
    ping: () => client.sendCommand(['PING']),
  };
}

function clusterRunner(cluster: NodeRedisClusterLike): RedisRunner {
  return {
    eval: (script, key, args) => cluster.sendCommand(key, false, evalArgs(script, key, args)),
    // Routed by the key, WAIT goes to the connection of the slot's master, which carried the write.
    wait: (key, replicas, timeoutMs) =>
      cluster.sendCommand(key, false, ['WAIT', String(replicas), String(timeoutMs)]),
    ping: () => cluster.sendCommand(undefined, true, ['PING']),
  };
}

function ioredisRunner(client: IoRedisLike): RedisRunner {
  return {
    eval: (script, key, args) => client.call('EVAL', script, 1, key, ...args),
    async wait(key, replicas, timeoutMs) {
      if (client.isCluster !== true) return client.call('WAIT', replicas, timeoutMs);
      // A keyless command goes to a random node of a Cluster; a pipeline goes to the node of its keys.
      const pipeline = client.pipeline();
      pipeline.exists(key);
      pipeline.call('WAIT', replicas, timeoutMs);
      const results = (await pipeline.exec()) ?? [];
      // A redirected EXISTS means the WAIT went to a node that no longer holds the slot.
      for (const [error] of results) if (error !== null) throw error;
      return results[1]?.[1];
    },
    ping: () => client.call('PING'),
  };
}

import type { Cancellation } from '@plantstore/core';
import { describeValue, optionError } from '@plantstore/core/adapter';
import { slotRefresher } from './slot-refresh';
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
export type Factory = 'redisStore' | 'redisReplayStore' | 'redisStreamSink';

/**
 * The commands the stores send, the same whichever client carries them. `cancelled`, the
 * call's time-out, lets a node-redis cluster read its topology again when a command outlives it.
 */
export interface RedisRunner {
  /**
   * EVAL of `script` on `key`, or on `keys` of one slot (routed to its slot's master on a Cluster,
   * by the first).
   */
  eval(
    script: string,
    key: string | readonly string[],
    args: readonly string[],
    cancelled?: Cancellation,
  ): Promise<unknown>;
  /** WAIT on the connection that carried the last write to `key`'s slot: the replicas that acked. */
  wait(
    key: string,
    replicas: number,
    timeoutMs: number,
    cancelled?: Cancellation,
  ): Promise<unknown>;
  /**
   * `WAITAOF 1 0` on the connection that carried the last write to `key`'s slot: `[local, replicas]`,
   * the local 1 once the server's own append-only file has it on disk.
   */
  waitAof(key: string, timeoutMs: number, cancelled?: Cancellation): Promise<unknown>;
  /** A command on `key` (routed to its slot's master on a Cluster): the event sink's XADD. */
  command(key: string, args: readonly string[]): Promise<unknown>;
  /** PING, for readiness. */
  ping(): Promise<unknown>;
  /** A command without a key, to a master (`ready()`'s look at the server's persistence). */
  send(args: readonly string[]): Promise<unknown>;
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

const keysOf = (key: string | readonly string[]): readonly string[] =>
  typeof key === 'string' ? [key] : key;
const evalArgs = (script: string, key: string | readonly string[], args: readonly string[]) => [
  'EVAL',
  script,
  String(keysOf(key).length),
  ...keysOf(key),
  ...args,
];

const waitAofArgs = (timeoutMs: number): string[] => ['WAITAOF', '1', '0', String(timeoutMs)];

function clientRunner(client: NodeRedisClientLike): RedisRunner {
  return {
    eval: (script, key, args) => client.sendCommand(evalArgs(script, key, args)),
    wait: (_key, replicas, timeoutMs) =>
      client.sendCommand(['WAIT', String(replicas), String(timeoutMs)]),
    waitAof: (_key, timeoutMs) => client.sendCommand(waitAofArgs(timeoutMs)),
    command: (_key, args) => client.sendCommand([...args]),
    ping: () => client.sendCommand(['PING']),
    send: (args) => client.sendCommand([...args]),
  };
}

function clusterRunner(cluster: NodeRedisClusterLike): RedisRunner {
  const watched = slotRefresher(cluster);
  return {
    eval: (script, key, args, cancelled) =>
      watched(cluster.sendCommand(keysOf(key)[0], false, evalArgs(script, key, args)), cancelled),
    // Routed by the key, WAIT goes to the connection of the slot's master, which carried the write.
    wait: (key, replicas, timeoutMs, cancelled) =>
      watched(
        cluster.sendCommand(key, false, ['WAIT', String(replicas), String(timeoutMs)]),
        cancelled,
      ),
    waitAof: (key, timeoutMs, cancelled) =>
      watched(cluster.sendCommand(key, false, waitAofArgs(timeoutMs)), cancelled),
    command: (key, args) => watched(cluster.sendCommand(key, false, [...args]), undefined),
    ping: () => cluster.sendCommand(undefined, true, ['PING']),
    send: (args) => cluster.sendCommand(undefined, false, [...args]),
  };
}

function ioredisRunner(client: IoRedisLike): RedisRunner {
  // WAIT and WAITAOF name no key: on a Cluster they go with an EXISTS of the key in a pipeline,
  // which goes to the node of its keys (a keyless command alone would go to a random node).
  const afterWrite = async (key: string, args: readonly string[]): Promise<unknown> => {
    const [command = '', ...rest] = args;
    if (client.isCluster !== true) return client.call(command, ...rest);
    const pipeline = client.pipeline();
    pipeline.exists(key);
    pipeline.call(command, ...rest);
    const results = (await pipeline.exec()) ?? [];
    // A redirected EXISTS means the command went to a node that no longer holds the slot.
    for (const [error] of results) if (error !== null) throw error;
    return results[1]?.[1];
  };
  return {
    eval: (script, key, args) => {
      const [command = '', ...rest] = evalArgs(script, key, args);
      return client.call(command, ...rest);
    },
    command: (_key, [command = '', ...rest]) => client.call(command, ...rest),
    wait: (key, replicas, timeoutMs) =>
      afterWrite(key, ['WAIT', String(replicas), String(timeoutMs)]),
    waitAof: (key, timeoutMs) => afterWrite(key, waitAofArgs(timeoutMs)),
    ping: () => client.call('PING'),
    send: ([command = '', ...rest]) => client.call(command, ...rest),
  };
}

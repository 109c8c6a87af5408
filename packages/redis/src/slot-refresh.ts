import type { Cancellation } from '@plantstore/core';
import { isReply } from './map-error';

/**
 * What the store reaches of a node-redis 5 or 6 cluster to have it read the topology again: its slot
 * map (`_slots`, declared in node-redis's types but not documented), whose `rediscover(startWith)`
 * asks a node for `CLUSTER SLOTS`/`SHARDS` and reconnects to the masters it names. node-redis 5
 * needs `startWith`, a node's client; 6 takes one.
 */
interface ClusterSlotsLike {
  readonly _slots?: { rediscover?: (startWith?: unknown) => Promise<unknown> } | undefined;
  readonly masters?: readonly ({ readonly client?: { readonly isReady?: boolean } } | undefined)[];
}

// At most one rediscovery started per this long: the time-outs of a burst of creates on a dead
// node each ask, and node-redis shares one rediscovery among the calls that overlap it anyway.
const REFRESH_EVERY_MS = 500;

/** Watches a cluster's commands, and has the client read the topology again when one fails. */
export type SlotRefresher = <T>(
  sent: Promise<T>,
  cancelled: Cancellation | undefined,
) => Promise<T>;

/**
 * node-redis follows `MOVED` and `ASK`, but a master that died takes its connection with it: the
 * commands it held fail, and new ones for its slots wait in that connection's offline queue until
 * they time out, for as long as nothing makes the client read the topology again (40 s measured
 * with the master left down; node-redis 6 refreshes on its own after 5 s of reconnecting, 5 never).
 * ioredis refreshes by itself. So a command that fails for want of its node (anything but a reply
 * of the server) or is still waiting at its time-out has the client rediscover the slots, at most
 * once per 500 ms and in the background: the call is answered 503 as before, and the creates after
 * it reach the replica promoted in the master's place.
 *
 * @param client - a node-redis cluster
 * @returns a function that watches one command, passing its outcome through
 * @example
 * ```ts
 * const watched = slotRefresher(cluster);
 * const reply = await watched(cluster.sendCommand(key, false, args), cancelled);
 * ```
 */
export function slotRefresher(client: object): SlotRefresher {
  const cluster = client as ClusterSlotsLike;
  let last = -Infinity;
  const refresh = (): void => {
    const now = performance.now();
    const rediscover = cluster._slots?.rediscover;
    if (now - last < REFRESH_EVERY_MS || typeof rediscover !== 'function') return;
    last = now;
    // A master whose connection is up answers for the cluster; the dead one's is reconnecting.
    const masters = cluster.masters ?? [];
    const startWith = (masters.find((node) => node?.client?.isReady === true) ?? masters[0])
      ?.client;
    // The store's call is answered already; a rediscovery that fails is tried again by the next one.
    void Promise.resolve()
      .then(() => rediscover.call(cluster._slots, startWith))
      .catch(() => undefined);
  };
  return (sent, cancelled) => {
    const stop = cancelled?.onAbort(refresh);
    return sent.then(
      (reply) => {
        stop?.();
        return reply;
      },
      (error: unknown) => {
        stop?.();
        if (!(error instanceof Error && isReply(error))) refresh();
        throw error;
      },
    );
  };
}

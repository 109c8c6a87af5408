import { cancellation, type ReplayStore } from '@plantstore/core';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  wholeNumber,
} from '@plantstore/core/adapter';
import type { DurableObjectNamespaceLike } from './durable-object-types';
import { REMEMBER_URL, type RememberAnswer, type RememberCall } from './replay-wire';

/** Options of {@link durableObjectReplayStore}. */
export interface DurableObjectReplayStoreOptions {
  /**
   * How many Durable Objects share the keys, each holding one range of them (by a hash of the key).
   * One object serves about a thousand calls a second; more spread a heavier load. Changing it
   * moves keys to other objects, so a proof seen just before the change could be replayed once:
   * change it when no proof in flight matters (the proofs' lifetime is a minute or so). Default 16.
   */
  readonly shards?: number | undefined;
  /** Prepended to the objects' names, for several services (or tests) on one namespace. Default ''. */
  readonly prefix?: string | undefined;
}

const FACTORY = 'durableObjectReplayStore';
const OPTIONS: ReadonlySet<string> = new Set(['shards', 'prefix']);
const DEFAULT_SHARDS = 16;
const SHARDS = { min: 1, max: 1024 };

/**
 * A DPoP {@link ReplayStore} on Durable Objects: strongly consistent, as a replay store must be
 * (Workers KV is eventually consistent, and would let a replay through another location). Each key
 * goes to the one object of its range, which decides it alone; expiry is judged by the service's
 * clock (`context.now`), and the objects delete expired keys by alarm. A call whose signal has
 * already fired rejects and remembers nothing; a failing object rejects (the service answers 503).
 *
 * @param namespace - the binding of {@link ReplayDurableObject} (`env.REPLAY`)
 * @param options - `shards` and `prefix`
 * @returns the store, for `jwtBearer({ dpop: dpopBinding({ replayStore }) })`
 * @throws TypeError when `namespace` is not a Durable Object namespace, or an option is wrong
 * @example
 * ```ts
 * const replayStore = durableObjectReplayStore(env.REPLAY);
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function durableObjectReplayStore<Id>(
  namespace: DurableObjectNamespaceLike<Id>,
  options: DurableObjectReplayStoreOptions = {},
): ReplayStore {
  const candidate = namespace as Partial<DurableObjectNamespaceLike<Id>> | null | undefined;
  if (typeof candidate?.idFromName !== 'function' || typeof candidate.get !== 'function') {
    throw new TypeError(
      'durableObjectReplayStore: expected a Durable Object namespace binding (env.REPLAY); ' +
        `received ${namespace === null ? 'null' : typeof namespace}`,
    );
  }
  const { shards, prefix } = checkOptions(options);
  // Ids are kept; stubs are not: workerd ties a stub to the request that made it, and this store
  // serves every request of the isolate.
  const ids = new Map<number, Id>();
  const stubOf = (key: string) => {
    const shard = shardOf(key, shards);
    let id = ids.get(shard);
    if (id === undefined) {
      id = namespace.idFromName(`${prefix}${shard}`);
      ids.set(shard, id);
    }
    return namespace.get(id);
  };
  return {
    async remember(key, expiresAt, context) {
      const cancelled = cancellation(context);
      if (cancelled.aborted) throw cancelled.reason;
      const call: RememberCall = { key, expiresAt, now: context.now };
      const response = await stubOf(key).fetch(REMEMBER_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(call),
      });
      if (!response.ok) {
        throw new Error(`The replay Durable Object answered HTTP ${response.status}`);
      }
      const answer = (await response.json()) as RememberAnswer;
      return answer.remembered === true;
    },
  };
}

function checkOptions(options: DurableObjectReplayStoreOptions): {
  shards: number;
  prefix: string;
} {
  checkKnownOptions(FACTORY, options, OPTIONS);
  const shards = wholeNumber(FACTORY, 'shards', options.shards, SHARDS, DEFAULT_SHARDS);
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') {
    optionError(FACTORY, 'prefix', 'must be a string', describeValue(prefix));
  }
  return { shards, prefix };
}

/** The key's range: FNV-1a of its characters, over the shards. */
function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) % shards;
}

import { isPlantServiceError, ServiceUnavailableError, type ReplayStore } from '@plantstore/core';
import {
  checkKnownOptions,
  describeValue,
  optionError,
  wholeNumber,
} from '@plantstore/core/adapter';
import {
  readyTimeoutOption,
  storeGate,
  type StoreLifecycle,
  type StoreTimeoutOptions,
} from '@plantstore/core/store-kit';
import type { DurableObjectNamespaceLike } from './durable-object-types';
import { READY_URL, REMEMBER_URL, type RememberAnswer, type RememberCall } from './replay-wire';

/** Options of {@link durableObjectReplayStore}. */
export interface DurableObjectReplayStoreOptions<Id = unknown> extends StoreTimeoutOptions {
  /** The binding of {@link ReplayDurableObject} (`env.REPLAY`). */
  readonly client: DurableObjectNamespaceLike<Id>;
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
const OPTIONS: ReadonlySet<string> = new Set(['client', 'shards', 'prefix', 'readyTimeout']);
const DEFAULT_SHARDS = 16;
const SHARDS = { min: 1, max: 1024 };

/**
 * A DPoP {@link ReplayStore} on Durable Objects: strongly consistent, as a replay store must be
 * (Workers KV is eventually consistent, and would let a replay through another location). Each key
 * goes to the one object of its range, which decides it alone; expiry is judged by the service's
 * clock (`context.now`), and the objects delete expired keys by alarm. A call whose signal has
 * already fired rejects and remembers nothing; a failing object rejects with a 503
 * `replay_store_unavailable`. `ready()` asks one object within `readyTimeout` (default 5 s);
 * `close()` refuses new calls (503) and waits for those under way.
 *
 * @param options - `client`, the binding of {@link ReplayDurableObject} (`env.REPLAY`), and
 *   optionally `shards`, `prefix` and `readyTimeout`
 * @returns the store, for `jwtBearer({ dpop: dpopBinding({ replayStore }) })`
 * @throws TypeError when `client` is not a Durable Object namespace, or an option is wrong
 * @example
 * ```ts
 * const replayStore = durableObjectReplayStore({ client: env.REPLAY });
 * const auth = jwtBearer({ jwksUri, issuer, audience, dpop: dpopBinding({ replayStore }) });
 * ```
 */
export function durableObjectReplayStore<Id>(
  options: DurableObjectReplayStoreOptions<Id>,
): ReplayStore & StoreLifecycle {
  const { shards, prefix, readyTimeout } = checkOptions(options);
  const namespace = options.client;
  const candidate = namespace as Partial<DurableObjectNamespaceLike<Id>> | null | undefined;
  if (typeof candidate?.idFromName !== 'function' || typeof candidate.get !== 'function') {
    throw new TypeError(
      'durableObjectReplayStore: expected a Durable Object namespace binding (env.REPLAY) as ' +
        `client; received ${namespace === null ? 'null' : typeof namespace}`,
    );
  }
  const gate = storeGate({
    code: 'replay_store_unavailable',
    what: 'The Durable Object replay store',
    readyTimeout,
    mapError: unavailable,
  });
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
  const answerOf = async (response: Response): Promise<unknown> => {
    if (!response.ok) throw new Error(`The replay Durable Object answered HTTP ${response.status}`);
    return response.json();
  };
  return {
    remember: (key, expiresAt, context) =>
      gate.call(context, async () => {
        const call: RememberCall = { key, expiresAt, now: context.now };
        const response = await stubOf(key).fetch(REMEMBER_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(call),
        });
        return ((await answerOf(response)) as RememberAnswer).remembered === true;
      }),
    ready: () =>
      gate.ready(async () => {
        const probe = { method: 'POST', headers: {}, body: '' };
        return answerOf(await stubOf('ready').fetch(READY_URL, probe));
      }),
    close: () => gate.close(),
  };
}

// A Durable Object that fails or cannot be reached: the proof cannot be checked now, a retry may.
function unavailable(error: unknown): unknown {
  if (isPlantServiceError(error)) return error;
  return new ServiceUnavailableError(
    'replay_store_unavailable',
    'The Durable Object replay store is unavailable.',
    { cause: error },
  );
}

function checkOptions(options: DurableObjectReplayStoreOptions): {
  shards: number;
  prefix: string;
  readyTimeout: number;
} {
  checkKnownOptions(FACTORY, options, OPTIONS);
  const shards = wholeNumber(FACTORY, 'shards', options.shards, SHARDS, DEFAULT_SHARDS);
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') {
    optionError(FACTORY, 'prefix', 'must be a string', describeValue(prefix));
  }
  return { shards, prefix, readyTimeout: readyTimeoutOption(FACTORY, options.readyTimeout) };
}

/** The key's range: FNV-1a of its characters, over the shards. */
function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) % shards;
}

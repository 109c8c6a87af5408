import type { StoredPlant } from '@plantstore/core';
import * as cloudflare from '@plantstore/cloudflare';
import type { StoreAnswer, StoreCall, WirePlant, WireStore } from '../support/store-wire';

// The Worker the stores' conformance suites run against: each call of the suite in the test process
// comes here as one request (support/worker-stores.ts), and the store under test runs here, in
// workerd, on the Worker's D1 database and replay Durable Object, as it runs deployed.
export const ReplayDurableObject = cloudflare.ReplayDurableObject;

/** The Worker's bindings: its D1 database and its replay Durable Object namespace. */
type Env = Readonly<{
  DB: cloudflare.D1DatabaseLike;
  REPLAY: cloudflare.DurableObjectNamespaceLike;
}>;

type Store = cloudflare.D1Store | ReturnType<typeof cloudflare.durableObjectReplayStore>;

const principal = { subject: 'conformance', scopes: [], claims: {} };
// Short, so the lifecycle's silent case answers well inside its bound.
const SILENT_READY_MS = 300;
const never = (): Promise<never> => new Promise<never>(() => undefined);

// Bindings that take every call and never answer: a D1 or a Durable Object behind a partition.
const silentDb = {
  prepare: () => ({ bind: () => ({}) }),
  batch: never,
} as unknown as cloudflare.D1DatabaseLike;
const silentReplay: cloudflare.DurableObjectNamespaceLike = {
  idFromName: (name) => name,
  get: () => ({ fetch: never }),
};

// The stores by instance: a store lives across the requests of its test, as in one isolate.
const stores = new Map<string, Store>();

function storeOf({ instance, silent, prefix }: WireStore, env: Env): Store {
  const known = stores.get(instance);
  if (known !== undefined) return known;
  const readyTimeout = silent ? SILENT_READY_MS : undefined;
  const store =
    prefix === undefined
      ? cloudflare.d1Store({ client: silent ? silentDb : env.DB, readyTimeout })
      : cloudflare.durableObjectReplayStore({
          client: silent ? silentReplay : env.REPLAY,
          prefix,
          shards: 4,
          readyTimeout,
        });
  stores.set(instance, store);
  return store;
}

async function run(call: StoreCall, env: Env, signal: AbortSignal): Promise<StoreAnswer> {
  const store = storeOf(call.store, env);
  if (call.kind === 'ready' || call.kind === 'close') {
    await store[call.kind]();
    return { done: true };
  }
  if (call.kind === 'remember') {
    if (!('remember' in store)) throw new Error('remember() called on the D1 store');
    return {
      remembered: await store.remember(call.key, call.expiresAt, { now: call.now, signal }),
    };
  }
  if (!('insert' in store)) throw new Error('insert() called on the replay store');
  const { id, name, tag, tenant, createdBy, clientId, createdAt, tokenId } = call.plant;
  const plant = {
    id: BigInt(id),
    name,
    ...(tag === undefined ? {} : { tag }),
    tenant: tenant ?? '',
    createdBy,
    clientId,
    createdAt: new Date(createdAt ?? 0),
    tokenId,
  };
  const result = await store.insert(plant, { principal, signal });
  if (result.created) return { created: true };
  const { existing } = result;
  return {
    created: false,
    existing: {
      id: existing.id.toString(),
      name: existing.name,
      ...(existing.tag === undefined ? {} : { tag: existing.tag }),
      ...audit(existing),
    },
  };
}

async function answer(call: StoreCall, env: Env): Promise<StoreAnswer> {
  // The suite's signal had fired before the call: the store must see it fired.
  const controller = new AbortController();
  if (call.aborted) controller.abort(new Error('store time-out'));
  try {
    return await run(call, env, controller.signal);
  } catch (error) {
    // The lifecycle cases check a refusal's status and code: they cross the wire with the message.
    const { status, code } = (error ?? {}) as { status?: unknown; code?: unknown };
    return {
      failed: error instanceof Error ? error.message : String(error),
      ...(typeof status === 'number' ? { status } : {}),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
}

export default {
  // A batch of calls the suite made together runs here together, so their concurrency is the
  // store's own and not that of 1,000 sockets between the test process and workerd.
  async fetch(request: Request, env: Env): Promise<Response> {
    const calls = (await request.json()) as readonly StoreCall[];
    return Response.json(await Promise.all(calls.map((call) => answer(call, env))));
  },
};

/** The audit fields of a stored plant, as the wire carries them (createdAt as ISO 8601). */
function audit(existing: StoredPlant): Partial<WirePlant> {
  const { tenant, createdBy, clientId, createdAt, tokenId } = existing;
  return {
    ...(typeof tenant === 'string' ? { tenant } : {}),
    ...(typeof createdBy === 'string' ? { createdBy } : {}),
    ...(typeof clientId === 'string' ? { clientId } : {}),
    ...(createdAt instanceof Date ? { createdAt: createdAt.toISOString() } : {}),
    ...(typeof tokenId === 'string' ? { tokenId } : {}),
  };
}

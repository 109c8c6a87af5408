import * as cloudflare from '@plantstore/cloudflare';
import type { StoreAnswer, StoreCall } from '../support/store-wire';

// The Worker the stores' conformance suites run against: each call of the suite in the test process
// comes here as one request (support/worker-stores.ts), and the store under test runs here, in
// workerd, on the Worker's D1 database and replay Durable Object, as it runs deployed.
export const ReplayDurableObject = cloudflare.ReplayDurableObject;

/** The Worker's bindings: its D1 database and its replay Durable Object namespace. */
type Env = Readonly<{
  DB: cloudflare.D1DatabaseLike;
  REPLAY: cloudflare.DurableObjectNamespaceLike;
}>;

const principal = { subject: 'conformance', scopes: [], claims: {} };

async function run(call: StoreCall, env: Env, signal: AbortSignal): Promise<StoreAnswer> {
  if (call.kind === 'remember') {
    const store = cloudflare.durableObjectReplayStore(env.REPLAY, {
      prefix: call.prefix,
      shards: 4,
    });
    return {
      remembered: await store.remember(call.key, call.expiresAt, { now: call.now, signal }),
    };
  }
  const { id, name, tag } = call.plant;
  const plant = { id: BigInt(id), name, ...(tag === undefined ? {} : { tag }) };
  const result = await cloudflare.d1Store(env.DB).insert(plant, { principal, signal });
  if (result.created) return { created: true };
  const { existing } = result;
  return {
    created: false,
    existing: {
      id: existing.id.toString(),
      name: existing.name,
      ...(existing.tag === undefined ? {} : { tag: existing.tag }),
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
    return { failed: error instanceof Error ? error.message : String(error) };
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

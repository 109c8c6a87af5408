import type { InsertResult, PlantStore, ReplayStore } from '@plantstore/core';
import type { StoreAnswer, StoreCall } from './store-wire';

/**
 * The stores of the stores' Worker, seen from the test process: each call is one request to the
 * Worker, where `d1Store` and `durableObjectReplayStore` run on its bindings; a failure there
 * rejects here with its message. A call whose signal has already fired goes with `aborted`, so the
 * store itself refuses it.
 *
 * @param origin - the Worker's address
 * @returns a `PlantStore` on the Worker's D1, and a `ReplayStore` per prefix on its Durable Objects
 * @example
 * ```ts
 * const { d1, replay } = workerStores(worker.origin);
 * await d1.insert(plant, context);
 * ```
 */
export function workerStores(origin: string): {
  readonly d1: PlantStore;
  replay(prefix: string): ReplayStore;
} {
  const call = async (body: StoreCall): Promise<StoreAnswer> => {
    const response = await fetch(origin, { method: 'POST', body: JSON.stringify(body) });
    const answer = (await response.json()) as StoreAnswer;
    if ('failed' in answer) throw new Error(answer.failed);
    return answer;
  };
  return {
    d1: {
      async insert({ id, name, tag }, context): Promise<InsertResult> {
        const plant = { id: id.toString(), name, ...(tag === undefined ? {} : { tag }) };
        const answer = await call({ kind: 'insert', aborted: context.signal.aborted, plant });
        if (!('created' in answer)) throw new Error('the Worker answered no insert result');
        if (answer.created) return answer;
        const { existing } = answer;
        return { created: false, existing: { ...existing, id: BigInt(existing.id) } };
      },
    },
    replay: (prefix) => ({
      async remember(key, expiresAt, context) {
        const { now, signal } = context;
        const answer = await call({
          kind: 'remember',
          aborted: signal.aborted,
          prefix,
          key,
          expiresAt,
          now,
        });
        if (!('remembered' in answer)) throw new Error('the Worker answered no replay result');
        return answer.remembered;
      },
    }),
  };
}

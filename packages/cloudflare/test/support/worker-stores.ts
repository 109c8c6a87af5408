import type { InsertResult, PlantStore, ReplayStore } from '@plantstore/core';
import type { StoreAnswer, StoreCall } from './store-wire';

/**
 * The stores of the stores' Worker, seen from the test process: each call is one request to the
 * Worker, where `d1Store` and `durableObjectReplayStore` run on its bindings; a failure there
 * rejects here with its message. Calls made in the same turn of the event loop (a suite's
 * `Promise.all` of 1,000) travel as one request and run concurrently in the Worker: on a busy
 * machine, 1,000 sockets at once made the suite flaky without testing the store any harder. A call whose signal has already fired goes with `aborted`, so the
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
  const call = batchedCalls(origin);
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

/** Sends the calls made in one turn of the event loop to the Worker as one request. */
function batchedCalls(origin: string): (body: StoreCall) => Promise<StoreAnswer> {
  let queue: { call: StoreCall; settle: (answer: StoreAnswer | Error) => void }[] = [];
  const flush = async (): Promise<void> => {
    const batch = queue;
    queue = [];
    try {
      const response = await fetch(origin, {
        method: 'POST',
        body: JSON.stringify(batch.map((entry) => entry.call)),
      });
      const answers = (await response.json()) as StoreAnswer[];
      for (const [index, entry] of batch.entries()) {
        entry.settle(answers[index] ?? new Error('the Worker answered too few results'));
      }
    } catch (error) {
      for (const entry of batch) entry.settle(error as Error);
    }
  };
  return (body) =>
    new Promise((resolve, reject) => {
      if (queue.length === 0) setImmediate(() => void flush());
      queue.push({
        call: body,
        settle: (answer) => {
          if (answer instanceof Error) reject(answer);
          else if ('failed' in answer) reject(new Error(answer.failed));
          else resolve(answer);
        },
      });
    });
}

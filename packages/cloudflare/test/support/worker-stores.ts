import type { InsertResult, PlantStore, ReplayStore } from '@plantstore/core';
import { randomUUID } from 'node:crypto';
import type { StoreAnswer, StoreCall, WireStore } from './store-wire';

/**
 * The stores of the stores' Worker, seen from the test process: each call is one request to the
 * Worker, where `d1Store` and `durableObjectReplayStore` run on its bindings; a failure there
 * rejects here with its message. Calls made in the same turn of the event loop (a suite's
 * `Promise.all` of 1,000) travel as one request and run concurrently in the Worker: on a busy
 * machine, 1,000 sockets at once made the suite flaky without testing the store any harder. A call
 * whose signal has already fired goes with `aborted`, so the store itself refuses it. Each store
 * here is its own store in the Worker, so `close()` closes that one; `silent` builds it there on a
 * binding that never answers.
 *
 * @param origin - the Worker's address
 * @returns makers of a `PlantStore` on the Worker's D1, and of a `ReplayStore` per prefix on its
 *   Durable Objects
 * @example
 * ```ts
 * const { d1, replay } = workerStores(worker.origin);
 * await d1().insert(plant, context);
 * ```
 */
export function workerStores(origin: string): {
  d1(options?: { readonly silent?: boolean }): PlantStore;
  replay(prefix: string, options?: { readonly silent?: boolean }): ReplayStore;
} {
  const call = batchedCalls(origin);
  /** `ready()` and `close()` of the Worker's store `store`. */
  const lifecycle = (store: WireStore) => ({
    async ready(): Promise<void> {
      await call({ kind: 'ready', aborted: false, store });
    },
    async close(): Promise<void> {
      await call({ kind: 'close', aborted: false, store });
    },
  });
  return {
    d1: ({ silent = false } = {}) => {
      const store: WireStore = { instance: randomUUID(), silent };
      return {
        async insert(record, context): Promise<InsertResult> {
          const { id, name, tag, tenant, createdBy, clientId, createdAt, tokenId } = record;
          const plant = {
            id: id.toString(),
            name,
            ...(tag === undefined ? {} : { tag }),
            tenant,
            ...(createdBy === undefined ? {} : { createdBy }),
            ...(clientId === undefined ? {} : { clientId }),
            createdAt: createdAt.toISOString(),
            ...(tokenId === undefined ? {} : { tokenId }),
          };
          const aborted = context.signal.aborted;
          const answer = await call({ kind: 'insert', aborted, store, plant });
          if (!('created' in answer)) throw new Error('the Worker answered no insert result');
          if (answer.created) return answer;
          const { existing } = answer;
          const { createdAt: at, ...rest } = existing;
          return {
            created: false,
            existing: {
              ...rest,
              id: BigInt(existing.id),
              ...(at === undefined ? {} : { createdAt: new Date(at) }),
            },
          };
        },
        ...lifecycle(store),
      };
    },
    replay: (prefix, { silent = false } = {}) => {
      const store: WireStore = { instance: randomUUID(), silent, prefix };
      return {
        async remember(key, expiresAt, context) {
          const { now, signal } = context;
          const aborted = signal.aborted;
          const answer = await call({ kind: 'remember', aborted, store, key, expiresAt, now });
          if (!('remembered' in answer)) throw new Error('the Worker answered no replay result');
          return answer.remembered;
        },
        ...lifecycle(store),
      };
    },
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
          else if ('failed' in answer) reject(refusal(answer));
          else resolve(answer);
        },
      });
    });
}

/** The Worker's failure as an Error here, with the `status` and `code` the store's error had. */
function refusal(answer: { failed: string; status?: number; code?: string }): Error {
  const { failed, ...fields } = answer;
  return Object.assign(new Error(failed), fields);
}

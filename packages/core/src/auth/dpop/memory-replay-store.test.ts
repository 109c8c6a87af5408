import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../../errors/server-errors';
import { describeReplayStoreConformance } from '../../testing/replay-store-conformance';
import { memoryReplayStore } from './memory-replay-store';
import type { ReplayContext } from './replay-store';

describeReplayStoreConformance({ describe, it }, 'memoryReplayStore', {
  create: () => memoryReplayStore(),
  destroy: (store) => store.close?.(),
});

const T = Date.UTC(2026, 0, 1);
const at = (now: number): ReplayContext => ({ now, signal: new AbortController().signal });

/** What a rejection carries, as the service would answer it. */
async function failureOf(work: Promise<unknown>) {
  const error: unknown = await work.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  if (!(error instanceof ServiceUnavailableError)) return error;
  const { status, code, retryAfter, headers, message } = error;
  return { status, code, retryAfter, headers, message };
}

const FULL = {
  status: 503,
  code: 'replay_store_unavailable',
  retryAfter: 1,
  headers: { 'retry-after': '1' },
  message: 'The DPoP replay store is full.',
};

describe('memoryReplayStore', () => {
  it('refuses a new key with 503 replay_store_unavailable, Retry-After 1, when full of unexpired keys', async () => {
    const store = memoryReplayStore({ max: 3 });
    for (const key of ['a', 'b', 'c'])
      expect(await store.remember(key, T + 60_000, at(T))).toBe(true);
    expect(await failureOf(store.remember('d', T + 60_000, at(T)))).toStrictEqual(FULL);
    expect(await failureOf(store.remember('d', T + 60_000, at(T + 59_999)))).toStrictEqual(FULL);
    // A replay is still told apart while full: refusing it is never the store's failure.
    expect(await store.remember('b', T + 60_000, at(T))).toBe(false);
  });

  it('sweeps expired keys to make room, also ones behind an unexpired key', async () => {
    const store = memoryReplayStore({ max: 3 });
    expect(await store.remember('late', T + 50_000, at(T))).toBe(true);
    expect(await store.remember('early 1', T + 10_000, at(T))).toBe(true);
    expect(await store.remember('early 2', T + 10_000, at(T))).toBe(true);
    const later = T + 20_000;
    expect(await store.remember('new 1', later + 60_000, at(later))).toBe(true);
    expect(await store.remember('new 2', later + 60_000, at(later))).toBe(true);
    expect(await failureOf(store.remember('new 3', later + 60_000, at(later)))).toStrictEqual(FULL);
    expect(await store.remember('late', later + 60_000, at(later))).toBe(false);
    // Once the earliest key held has expired, it makes room again, for that one key.
    expect(await store.remember('new 3', T + 120_000, at(T + 50_000))).toBe(true);
    expect(await store.remember('new 1', T + 120_000, at(T + 50_000))).toBe(false);
    expect(await failureOf(store.remember('new 4', T + 120_000, at(T + 50_000)))).toStrictEqual(
      FULL,
    );
  });

  it('makes room by the earliest expiry even after a full store refused keys', async () => {
    const store = memoryReplayStore({ max: 2 });
    expect(await store.remember('a', T + 30_000, at(T))).toBe(true);
    expect(await store.remember('b', T + 10_000, at(T))).toBe(true);
    expect(await failureOf(store.remember('c', T + 60_000, at(T + 9_999)))).toStrictEqual(FULL);
    expect(await store.remember('c', T + 60_000, at(T + 10_000))).toBe(true);
    expect(await failureOf(store.remember('d', T + 60_000, at(T + 29_999)))).toStrictEqual(FULL);
    expect(await store.remember('d', T + 60_000, at(T + 30_000))).toBe(true);
    expect(await store.remember('c', T + 60_000, at(T + 30_000))).toBe(false);
  });

  it('forgets keys by expiry, not by the order they came in (clients choose iat)', async () => {
    const store = memoryReplayStore({ max: 4 });
    // Fractional seconds and out of order, as clients' iat make them.
    const held: [string, number][] = [
      ['d', T + 40_500],
      ['a', T + 10_250],
      ['c', T + 30_750],
      ['b', T + 20_125],
    ];
    for (const [key, expiresAt] of held)
      expect(await store.remember(key, expiresAt, at(T))).toBe(true);
    expect(await failureOf(store.remember('e', T + 90_000, at(T + 10_249)))).toStrictEqual(FULL);
    // `a` expired, and only `a`: room for one key, and `b`, `c`, `d` still refused.
    expect(await store.remember('e', T + 90_000, at(T + 10_250))).toBe(true);
    expect(await failureOf(store.remember('f', T + 90_000, at(T + 20_124)))).toStrictEqual(FULL);
    for (const key of ['b', 'c', 'd', 'e']) {
      expect(await store.remember(key, T + 90_000, at(T + 20_124))).toBe(false);
    }
    // `b` and `c` expired: room for two keys; `a` may be remembered again.
    expect(await store.remember('a', T + 90_000, at(T + 30_750))).toBe(true);
    expect(await store.remember('f', T + 90_000, at(T + 30_750))).toBe(true);
    expect(await failureOf(store.remember('g', T + 90_000, at(T + 30_750)))).toStrictEqual(FULL);
    expect(await store.remember('d', T + 90_000, at(T + 30_750))).toBe(false);
  });

  it('never walks the keys it holds: a full store whose earliest key expired takes a new key at once', async () => {
    const max = 1_000;
    const store = memoryReplayStore({ max });
    // Expiries in an order unrelated to insertion; the earliest one comes last.
    for (let i = 0; i < max - 1; i += 1) {
      expect(await store.remember(`k${i}`, T + 20_000 + ((i * 7_919) % max), at(T))).toBe(true);
    }
    expect(await store.remember('earliest', T + 10_000, at(T))).toBe(true);
    const iterations = countMapIterations(
      () =>
        [
          store.remember('refused', T + 90_000, at(T + 9_999)),
          store.remember('new', T + 90_000, at(T + 10_000)),
          store.remember('again', T + 90_000, at(T + 10_000)),
        ] as const,
    );
    const [refused, taken, full] = iterations.result;
    expect(await failureOf(refused)).toStrictEqual(FULL);
    expect(await taken).toBe(true);
    expect(await failureOf(full)).toStrictEqual(FULL);
    // The old store scanned every key once the earliest had expired (about 1.5 ms for 100,000).
    expect(iterations.count).toBe(0);
  });

  it('answers as a naive model that scans every key does, for any calls (fast-check)', async () => {
    const call = fc.record({
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      ttl: fc.integer({ min: 1, max: 50 }),
      step: fc.integer({ min: -5, max: 20 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(call, { maxLength: 60 }),
        async (max, calls) => {
          const store = memoryReplayStore({ max });
          const model = new Map<string, number>();
          let now = T;
          for (const { key, ttl, step } of calls) {
            now += step;
            const seen = model.get(key);
            let expected: boolean | 'full';
            if (seen !== undefined && seen > now) expected = false;
            else {
              for (const [held, expiresAt] of model) if (expiresAt <= now) model.delete(held);
              expected = model.size >= max ? 'full' : true;
              if (expected === true) model.set(key, now + ttl);
            }
            const answer = await store
              .remember(key, now + ttl, at(now))
              .catch(() => 'full' as const);
            expect(answer).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects with the reason of a signal that has already fired', async () => {
    const store = memoryReplayStore();
    const controller = new AbortController();
    const reason = new Error('replay check time-out');
    controller.abort(reason);
    await expect(store.remember('k', T + 1, { now: T, signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('forgets every key on close(), and refuses calls after it with 503', async () => {
    const store = memoryReplayStore();
    expect(await store.remember('k', T + 60_000, at(T))).toBe(true);
    await store.close();
    await expect(store.remember('k', T + 60_000, at(T))).rejects.toMatchObject({
      status: 503,
      code: 'replay_store_unavailable',
      message: 'The memory replay store is closed.',
    });
  });

  it.each([
    [0, '0'],
    [1.5, '1.5'],
    [2 ** 24 + 1, '16777217'],
    ['100', 'a string of 3 characters'],
  ])('refuses max %j at creation', (max, received) => {
    expect(() => memoryReplayStore({ max: max as number })).toThrow(
      new TypeError(
        `memoryReplayStore: option "max" must be a whole number from 1 to 16777216; received ${received}`,
      ),
    );
  });
});

/**
 * Runs `work` counting the iterations of any Map it starts (`for … of`, `entries`, `keys`, `values`,
 * `forEach`): work that touches only the keys it needs starts none.
 */
function countMapIterations<T>(work: () => T): { count: number; result: T } {
  const names = [Symbol.iterator, 'entries', 'keys', 'values', 'forEach'] as const;
  const originals = names.map((name) => Object.getOwnPropertyDescriptor(Map.prototype, name));
  let count = 0;
  for (const [index, name] of names.entries()) {
    const original = originals[index]?.value as (...args: unknown[]) => unknown;
    Object.defineProperty(Map.prototype, name, {
      ...originals[index],
      value(this: Map<unknown, unknown>, ...args: unknown[]) {
        count += 1;
        return original.apply(this, args);
      },
    });
  }
  try {
    const result = work();
    return { count, result };
  } finally {
    for (const [index, name] of names.entries()) {
      Object.defineProperty(Map.prototype, name, originals[index] as PropertyDescriptor);
    }
  }
}

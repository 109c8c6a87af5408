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

  it('rejects with the reason of a signal that has already fired', async () => {
    const store = memoryReplayStore();
    const controller = new AbortController();
    const reason = new Error('replay check time-out');
    controller.abort(reason);
    await expect(store.remember('k', T + 1, { now: T, signal: controller.signal })).rejects.toBe(
      reason,
    );
  });

  it('forgets every key on close()', async () => {
    const store = memoryReplayStore();
    expect(await store.remember('k', T + 60_000, at(T))).toBe(true);
    await store.close?.();
    expect(await store.remember('k', T + 60_000, at(T))).toBe(true);
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

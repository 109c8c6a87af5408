import { ServiceUnavailableError } from '../../errors/server-errors';
import { wholeNumber } from '../../options/check-options';
import { expiryHeap } from '../../common/expiry-heap';
import { storeGate, type StoreLifecycle } from '../../store-kit/store-gate';
import type { ReplayContext, ReplayStore } from './replay-store';

/** Options of {@link memoryReplayStore}. */
export interface MemoryReplayStoreOptions {
  /** Most keys held at once. Default 100000 (about 15 MB); a full store answers 503, never a replay. */
  readonly max?: number | undefined;
}

/**
 * A {@link ReplayStore} in this process's memory: right for one instance. Several instances behind
 * a load balancer need a shared store (`postgresReplayStore`), or a proof refused by one would
 * be accepted by another.
 *
 * When it holds `max` unexpired keys it refuses new ones with a 503 `replay_store_unavailable`:
 * forgetting a key early would let its proof be replayed. Expired keys are found by their expiry,
 * whatever order they came in, at O(log n) each: a call never walks the keys held, full or not.
 *
 * @param options - `max`, the bound on keys held
 * @returns the store
 * @example
 * ```ts
 * jwtBearer({ …, dpop: dpopBinding({ replayStore: memoryReplayStore({ max: 10_000 }) }) });
 * ```
 */
export function memoryReplayStore(
  options: MemoryReplayStoreOptions = {},
): ReplayStore & StoreLifecycle {
  const max = wholeNumber(
    'memoryReplayStore',
    'max',
    options.max,
    { min: 1, max: 2 ** 24 },
    100_000,
  );
  const keys = new Map<string, number>();
  // The keys by expiry: clients choose a proof's iat (fractions of a second too), so keys do not
  // expire in the order they came in, and a full store must find the expired ones without a scan.
  const expiries = expiryHeap();

  // Each expired key is taken off in O(log n); an entry whose key has been forgotten or holds
  // another expiry (neither happens while every key is pushed once per `set`) is dropped on the way.
  const forgetExpired = (now: number): void => {
    for (let at = expiries.earliest(); at <= now; at = expiries.earliest()) {
      const key = expiries.pop() as string;
      if (keys.get(key) === at) keys.delete(key);
    }
  };

  // The gate refuses a call whose signal fired, as a plant store does: the service has answered
  // 503 already, and a key remembered now would refuse a proof that was never used.
  const gate = storeGate({ code: 'replay_store_unavailable', what: 'The memory replay store' });
  const remember = (key: string, expiresAt: number, { now }: ReplayContext): Promise<boolean> => {
    const seen = keys.get(key);
    if (seen !== undefined && seen > now) return Promise.resolve(false);
    forgetExpired(now);
    if (keys.size >= max) {
      return Promise.reject(
        new ServiceUnavailableError('replay_store_unavailable', 'The DPoP replay store is full.', {
          retryAfter: 1,
        }),
      );
    }
    keys.set(key, expiresAt);
    expiries.push(key, expiresAt);
    return Promise.resolve(true);
  };

  return {
    remember: (key, expiresAt, context) =>
      gate.call(context, () => remember(key, expiresAt, context)),
    ready: () => gate.ready(() => Promise.resolve()),
    close: () =>
      gate.close(() => {
        keys.clear();
        expiries.clear();
        return Promise.resolve();
      }),
  };
}

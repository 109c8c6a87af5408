import { ServiceUnavailableError } from '../../errors/server-errors';
import { wholeNumber } from '../../options/check-options';
import { cancellation } from '../../common/cancellation';
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
 * forgetting a key early would let its proof be replayed.
 *
 * @param options - `max`, the bound on keys held
 * @returns the store
 * @example
 * ```ts
 * jwtBearer({ …, dpop: { replayStore: memoryReplayStore({ max: 10_000 }) } });
 * ```
 */
export function memoryReplayStore(options: MemoryReplayStoreOptions = {}): ReplayStore {
  const max = wholeNumber(
    'memoryReplayStore',
    'max',
    options.max,
    { min: 1, max: 2 ** 24 },
    100_000,
  );
  // Insertion order is close to expiry order (every proof gets the same window), so expired keys
  // are found at the front.
  const keys = new Map<string, number>();
  // No key held expires before this. While the store is full and `now` has not reached it, a new
  // key is refused at once: a flood that fills the store must not buy a scan of every key with
  // each further request.
  let earliest = Number.POSITIVE_INFINITY;

  const sweepFront = (now: number): void => {
    for (const [key, expiresAt] of keys) {
      if (expiresAt > now) return;
      keys.delete(key);
    }
  };
  const sweepAll = (now: number): void => {
    earliest = Number.POSITIVE_INFINITY;
    for (const [key, expiresAt] of keys) {
      if (expiresAt <= now) keys.delete(key);
      else if (expiresAt < earliest) earliest = expiresAt;
    }
  };

  return {
    remember(key: string, expiresAt: number, context: ReplayContext): Promise<boolean> {
      const { now } = context;
      // As a plant store does: the service has answered 503 already, and a key remembered now
      // would refuse a proof that was never used.
      const cancelled = cancellation(context);
      if (cancelled.aborted) return Promise.reject(abortReason(cancelled.reason));
      const seen = keys.get(key);
      if (seen !== undefined && seen > now) return Promise.resolve(false);
      sweepFront(now);
      if (keys.size >= max && now >= earliest) sweepAll(now);
      if (keys.size >= max) {
        return Promise.reject(
          new ServiceUnavailableError(
            'replay_store_unavailable',
            'The DPoP replay store is full.',
            {
              retryAfter: 1,
            },
          ),
        );
      }
      keys.delete(key);
      keys.set(key, expiresAt);
      if (expiresAt < earliest) earliest = expiresAt;
      return Promise.resolve(true);
    },
    close(): Promise<void> {
      keys.clear();
      earliest = Number.POSITIVE_INFINITY;
      return Promise.resolve();
    },
  };
}

function abortReason(reason: unknown): Error {
  return reason instanceof Error
    ? reason
    : new Error('The replay check was aborted.', { cause: reason });
}

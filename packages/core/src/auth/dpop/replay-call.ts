import type { DeadlineList } from '../../common/deadline-list';
import { TimedCall } from '../../common/timed-call';
import { isPlantServiceError } from '../../errors/plant-service-error';
import { ServiceUnavailableError } from '../../errors/server-errors';
import type { ReplayContext, ReplayStore } from './replay-store';

function unavailable(cause?: unknown): ServiceUnavailableError {
  return new ServiceUnavailableError(
    'replay_store_unavailable',
    'The DPoP replay store did not answer.',
    { retryAfter: 1, ...(cause === undefined ? {} : { cause }) },
  );
}

/**
 * One `remember` under the replay time-out: the context the replay store is handed (the service's
 * clock, and a signal built only if the store reads it) and its place in the verifier's deadline
 * list, so a proof check costs no timer and no `AbortController` of its own.
 */
class ReplayCall extends TimedCall<boolean> implements ReplayContext {
  constructor(
    readonly now: number,
    expiresAt: number,
  ) {
    super(expiresAt);
  }

  run(store: ReplayStore, key: string, keyExpiresAt: number): Promise<boolean> {
    return this.settle(() => store.remember(key, keyExpiresAt, this));
  }

  protected timedOut(cause?: unknown): ServiceUnavailableError {
    return unavailable(cause);
  }
}

/**
 * Remembers a proof's key in the replay store within `timeoutMs`. A store that fails, or does not
 * answer in time, never lets the proof through: it rejects with a 503 and the client retries.
 *
 * @param store - the replay store
 * @param deadlines - the verifier's in-flight calls, one timer for all
 * @param timeoutMs - how long the store may take
 * @param key - the proof's key
 * @param expiresAt - epoch milliseconds until which the key must be remembered
 * @param now - the service's clock, in epoch milliseconds
 * @returns `true` when the key was new, `false` for a replay
 * @example
 * ```ts
 * if (!(await rememberWithin(store, deadlines, 2000, key, expiresAt, Date.now()))) refuse();
 * ```
 */
export async function rememberWithin(
  store: ReplayStore,
  deadlines: DeadlineList,
  timeoutMs: number,
  key: string,
  expiresAt: number,
  now: number,
): Promise<boolean> {
  const call = new ReplayCall(now, performance.now() + timeoutMs);
  deadlines.add(call);
  try {
    return await call.run(store, key, expiresAt);
  } catch (error) {
    if (call.reason !== undefined) throw call.reason;
    if (isPlantServiceError(error)) throw error;
    throw unavailable(error);
  } finally {
    deadlines.remove(call);
  }
}

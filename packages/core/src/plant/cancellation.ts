import { StoreCall } from './insert-plant';

/**
 * What a store needs of its time-out, read without an `AbortSignal`: whether it has passed, why, and
 * a listener for when it does. Building a signal costs Node 20 microseconds per request, which the
 * core spends only for a store that reads `context.signal`; a store on the request path that follows
 * the time-out through this costs nothing until it fires.
 */
export interface Cancellation {
  /** True once the time-out has passed: the client was answered 503, and nothing may be written. */
  readonly aborted: boolean;
  /** The error the time-out answered with (the signal's `reason`), once it passed. */
  readonly reason: unknown;
  /**
   * Calls `listener` once, when the time-out passes; not at all if it has passed already (check
   * `aborted` first), as `signal.addEventListener('abort', …)` behaves.
   *
   * @returns a function that removes the listener
   */
  onAbort(listener: () => void): () => void;
}

/**
 * The cancellation of a store call, or of anything else handed an `AbortSignal`: for a context the
 * service made, one that builds no signal; for any other, one that reads its `signal`. Stores of
 * other packages use it to follow the store time-out at no cost on the request path.
 *
 * @param context - a store's context (or any `{ signal }`)
 * @returns its cancellation
 * @example
 * ```ts
 * const store: PlantStore = {
 *   insert(plant, context) {
 *     const cancelled = cancellation(context);
 *     if (cancelled.aborted) return Promise.reject(cancelled.reason as Error);
 *     const stop = cancelled.onAbort(() => request.destroy());
 *     return send(plant).finally(stop);
 *   },
 * };
 * ```
 */
export function cancellation(context: { readonly signal: AbortSignal }): Cancellation {
  if (context instanceof StoreCall) return context;
  const { signal } = context;
  return {
    get aborted() {
      return signal.aborted;
    },
    get reason() {
      return signal.reason as unknown;
    },
    onAbort(listener) {
      signal.addEventListener('abort', listener, { once: true });
      return () => signal.removeEventListener('abort', listener);
    },
  };
}

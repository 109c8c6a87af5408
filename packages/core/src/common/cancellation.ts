import { TimedCall, type Cancellation } from './timed-call';

export type { Cancellation } from './timed-call';

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
  if (context instanceof TimedCall) return context;
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

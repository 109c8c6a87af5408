import { cancellation, type Cancellation } from '../common/cancellation';
import { ServiceUnavailableError } from '../errors/server-errors';
import { abortError } from './abort-error';
import { boundedWait, STORE_TIMEOUT_MS, TIMED_OUT } from './store-timeout';
import { underWay } from './under-way';

/** What every shipped store offers around its primitive. */
export interface StoreLifecycle {
  /** Answers once the backend answered; rejects with a 503 past its bound (`readyTimeout`). */
  ready(): Promise<void>;
  /** Refuses new calls with a 503, then waits for those under way; may be called again. */
  close(): Promise<void>;
}

/** How a store's gate answers. */
export interface StoreGateOptions {
  /** The code of its 503s: `store_unavailable` for a plant store, `replay_store_unavailable`. */
  readonly code: 'store_unavailable' | 'replay_store_unavailable';
  /** The store, as its messages name it: `The MySQL store`. */
  readonly what: string;
  /** How long `ready()` waits. Default {@link STORE_TIMEOUT_MS}. */
  readonly readyTimeout?: number | undefined;
  /**
   * How long `close()` waits for the calls under way and the clean-up after them. Default twice
   * {@link STORE_TIMEOUT_MS}: a call's own time-out, then a cancel's.
   */
  readonly closeTimeout?: number | undefined;
  /** Turns a driver's failure into what the store rejects with (a 503 when transient). */
  readonly mapError?: ((error: unknown) => unknown) | undefined;
}

/** The close gate of one store: admits calls until it is closed, and knows which are under way. */
export interface StoreGate {
  /** True once `close()` was called. */
  readonly closed: boolean;
  /**
   * Runs `work`: not at all when the context's signal has fired (it rejects with the abort's error)
   * or the store is closed (a 503); a failure after an abort rejects with the abort's error, any
   * other through `mapError`.
   */
  call<T>(
    context: { readonly signal: AbortSignal } | undefined,
    work: (cancelled: Cancellation) => Promise<T>,
  ): Promise<T>;
  /**
   * Runs `work` as {@link StoreGate.call} does, for a caller without a request's signal (the event
   * relay): bounded by {@link STORE_TIMEOUT_MS}, past which its cancellation fires and it rejects
   * with a 503 naming the bound.
   */
  bounded<T>(work: (cancelled: Cancellation) => Promise<T>): Promise<T>;
  /** Keeps work nobody waits on (a prune, a cancel) until it settles, so `close()` waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
  /**
   * Runs a readiness probe under the `readyTimeout`: past it the probe's cancellation (and the same
   * as a signal, for a client that takes one) fires and `ready()` rejects with a 503 naming the bound.
   */
  ready(probe: (cancelled: Cancellation, signal: AbortSignal) => Promise<unknown>): Promise<void>;
  /**
   * Refuses new calls, then waits (within `closeTimeout`) for those under way and for `drain`, the
   * store's own clean-up. A second call settles with the first.
   */
  close(drain?: () => Promise<void>): Promise<void>;
}

// The context of calls nobody cancels (a prune), made on first use: workerd refuses an
// AbortController made in a module's global scope.
let uncancelled: { readonly signal: AbortSignal } | undefined;
const neverCancelled = () => (uncancelled ??= { signal: new AbortController().signal });
const asIs = (error: unknown): unknown => error;

/**
 * The gate every shipped store is built around, and a custom store may be: `close()` refuses new
 * calls with a 503 and waits for those under way, bounded, idempotent; `ready()` answers within
 * its bound.
 *
 * @param options - the 503's code, the store's name, the bounds and the error mapping
 * @returns the gate
 * @example
 * ```ts
 * const gate = storeGate({ code: 'store_unavailable', what: 'The Mongo store', mapError });
 * return {
 *   insert: (plant, context) => gate.call(context, (cancelled) => insertOne(plant, cancelled)),
 *   ready: () => gate.ready(() => db.command({ ping: 1 })),
 *   close: () => gate.close(),
 * };
 * ```
 */
export function storeGate(options: StoreGateOptions): StoreGate {
  const { code, what, mapError = asIs } = options;
  const readyTimeout = options.readyTimeout ?? STORE_TIMEOUT_MS;
  const closeTimeout = options.closeTimeout ?? 2 * STORE_TIMEOUT_MS;
  const calls = underWay();
  const { track } = calls;
  let closing: Promise<void> | undefined;

  const refused = (): Promise<never> =>
    Promise.reject(new ServiceUnavailableError(code, `${what} is closed.`));

  const gate: StoreGate = {
    get closed() {
      return closing !== undefined;
    },
    call(context, work) {
      const cancelled = cancellation(context ?? neverCancelled());
      if (cancelled.aborted) return Promise.reject(abortError(cancelled));
      if (closing !== undefined) return refused();
      return track(
        work(cancelled).catch((error: unknown) => {
          throw cancelled.aborted ? abortError(cancelled) : mapError(error);
        }),
      );
    },
    bounded(work) {
      const controller = new AbortController();
      const late = new ServiceUnavailableError(
        code,
        `${what} did not answer within ${STORE_TIMEOUT_MS / 1000} s.`,
      );
      return gate.call(controller, async (cancelled) => {
        const answer = await boundedWait(work(cancelled), STORE_TIMEOUT_MS);
        if (answer !== TIMED_OUT) return answer;
        controller.abort(late);
        throw late;
      });
    },
    track,
    async ready(probe) {
      if (closing !== undefined) return refused();
      const controller = new AbortController();
      const probing = track(probe(cancellation(controller), controller.signal));
      const answer = await boundedWait(probing, readyTimeout).catch((error: unknown) => {
        throw mapError(error);
      });
      if (answer !== TIMED_OUT) return undefined;
      const late = new ServiceUnavailableError(
        code,
        `${what} did not answer within ${readyTimeout / 1000} s.`,
      );
      // The probe hears of it and cancels its statement; boundedWait has caught its late failure.
      controller.abort(late);
      throw late;
    },
    close(drain) {
      closing ??= boundedWait(calls.settled(drain), closeTimeout).then(() => undefined);
      return closing;
    },
  };
  return gate;
}

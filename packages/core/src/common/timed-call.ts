import type { ServiceUnavailableError } from '../errors/server-errors';
import type { Deadline } from './deadline-list';

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
   * `performance.now()` at which the time-out passes, for a store that bounds a server-side wait by
   * what is left (Redis's `WAIT`); `undefined` for a context the service did not make.
   */
  readonly expiresAt?: number | undefined;
  /**
   * Calls `listener` once, when the time-out passes; not at all if it has passed already (check
   * `aborted` first), as `signal.addEventListener('abort', …)` behaves.
   *
   * @returns a function that removes the listener
   */
  onAbort(listener: () => void): () => void;
}

const noop = (): void => undefined;

/**
 * One call to a store (a plant store, a replay store) under a time-out: its place in a
 * {@link deadlineList}, its {@link Cancellation}, and an `AbortSignal` built only when the store
 * reads it. A subclass says what the time-out answers; nothing here allocates a timer, a controller
 * or a race per call.
 */
export abstract class TimedCall<Result> implements Cancellation, Deadline {
  previous: Deadline | undefined = undefined;
  next: Deadline | undefined = undefined;
  listed = false;
  /** The 503 of the time-out, once it passed. */
  reason: ServiceUnavailableError | undefined = undefined;
  private controller: AbortController | undefined = undefined;
  private reject: ((error: unknown) => void) | undefined = undefined;
  private listeners: (() => void)[] | undefined = undefined;

  constructor(readonly expiresAt: number) {}

  /**
   * The error a client is answered with when the call outlives its time-out; `cause` is what a
   * store's abort listener threw, for the host's `onError`.
   */
  protected abstract timedOut(cause?: unknown): ServiceUnavailableError;

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.reason !== undefined) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.reason !== undefined;
  }

  onAbort(listener: () => void): () => void {
    if (this.reason !== undefined) return noop;
    (this.listeners ??= []).push(listener);
    return () => {
      const index = this.listeners?.indexOf(listener) ?? -1;
      if (index !== -1) this.listeners?.splice(index, 1);
    };
  }

  /**
   * Starts the call; settles with it, or rejects with the time-out's error when `expire` comes
   * first. A store that answers synchronously, or throws, is taken as it answered.
   */
  protected settle(start: () => Promise<Result> | Result): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.reject = reject;
      const pending = start();
      if (typeof (pending as Partial<Promise<Result>> | undefined)?.then === 'function') {
        (pending as Promise<Result>).then(resolve, reject);
      } else resolve(pending);
    });
  }

  expire(): void {
    this.reason = this.timedOut();
    // The store hears of it (and cancels its statement) before the client is answered.
    const listeners = this.listeners;
    this.listeners = undefined;
    // A listener that throws (a driver's cancel that fails) would otherwise escape from the
    // deadline timer and end the process; the client is still answered, and the host told.
    let failed = false;
    let failure: unknown;
    for (const listener of listeners ?? []) {
      try {
        listener();
      } catch (error) {
        if (!failed) [failed, failure] = [true, error];
      }
    }
    if (failed) this.reason = this.timedOut(failure);
    this.controller?.abort(this.reason);
    this.reject?.(this.reason);
  }
}

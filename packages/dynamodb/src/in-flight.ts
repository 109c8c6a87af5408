import { cancellation, ServiceUnavailableError, type Cancellation } from '@plantstore/core';
import { abortError } from './client';

// The context of calls nobody cancels (a readiness probe).
const UNCANCELLED = { signal: new AbortController().signal };

/** The calls of one store under way, so that `close()` can refuse new ones and wait for these. */
export class InFlight {
  #closed = false;
  readonly #calls = new Set<Promise<unknown>>();

  constructor(
    readonly code: ServiceUnavailableError['code'],
    readonly store: string,
  ) {}

  /**
   * Starts `call`, unless its signal has fired (then it rejects with the abort's reason and sends
   * nothing) or the store is closed (a 503). `call` is handed the call's cancellation.
   */
  run<T>(
    call: (cancelled: Cancellation) => Promise<T>,
    context: { readonly signal: AbortSignal } = UNCANCELLED,
  ): Promise<T> {
    const cancelled = cancellation(context);
    if (cancelled.aborted) return Promise.reject(abortError(cancelled));
    if (this.#closed) {
      return Promise.reject(new ServiceUnavailableError(this.code, `${this.store} is closed.`));
    }
    const running = call(cancelled);
    this.#calls.add(running);
    const forget = (): void => void this.#calls.delete(running);
    running.then(forget, forget);
    return running;
  }

  /** Refuses new calls and settles once those under way have. */
  async close(): Promise<void> {
    this.#closed = true;
    while (this.#calls.size > 0) await Promise.allSettled([...this.#calls]);
  }
}

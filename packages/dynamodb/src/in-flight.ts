import { ServiceUnavailableError, type ServiceUnavailableCode } from '@plantstore/core';

/** The calls of one store under way, so that `close()` can refuse new ones and wait for these. */
export class InFlight {
  #closed = false;
  readonly #calls = new Set<Promise<unknown>>();

  constructor(
    readonly code: ServiceUnavailableCode,
    readonly store: string,
  ) {}

  /** Starts `call` unless the store is closed (a 503 then). */
  run<T>(call: () => Promise<T>): Promise<T> {
    if (this.#closed) {
      return Promise.reject(new ServiceUnavailableError(this.code, `${this.store} is closed.`));
    }
    const running = call();
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

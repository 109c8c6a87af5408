import { introspectionUnavailable } from './introspection-unavailable';

/** A bound on the introspection calls in flight at once. */
export interface CallLimit {
  /**
   * Runs `call` if fewer than the bound are running, else rejects at once with a 503: past the
   * bound, tokens nobody has seen are most likely junk sent to spend the authorization server's
   * rate limit, and a legitimate client retries after `Retry-After`.
   */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Calls running now. */
  readonly running: number;
}

/**
 * Creates the bound on concurrent introspection calls. Without it every junk token is one outbound
 * call carrying the API's credentials, so a flood of them spends the authorization server's rate
 * limit and its connections, and then every uncached legitimate token gets 503 too; with it, the
 * flood costs at most `max` calls at a time, and cached tokens are never affected.
 *
 * @param max - the most calls in flight at once
 * @returns the limit
 * @example
 * ```ts
 * const limit = createCallLimit(16);
 * const answer = await limit.run(() => introspect(token, settings));
 * ```
 */
export function createCallLimit(max: number): CallLimit {
  let running = 0;
  const done = (): void => {
    running -= 1;
  };
  return {
    run<T>(call: () => Promise<T>): Promise<T> {
      if (running >= max) {
        return Promise.reject(
          introspectionUnavailable(`More than ${max} introspection calls at once`, undefined, 1),
        );
      }
      running += 1;
      const pending = call();
      pending.then(done, done);
      return pending;
    },
    get running() {
      return running;
    },
  };
}

import { MAX_TIMER_MS, wholeNumber } from '../options/check-options';

/**
 * How long a store's own waits last by default: `ready()`'s probe, a cancel or kill on its way to
 * the server, a cancelled statement's end. The service's `storeTimeout` has the same default, so a
 * store gives up on its clean-up no sooner than a client gives up on it.
 */
export const STORE_TIMEOUT_MS = 5_000;

/** What {@link boundedWait} settles with when the bound passed first. */
export const TIMED_OUT: unique symbol = Symbol('timed out');

/** The options every shipped store takes for its own bounds. */
export interface StoreTimeoutOptions {
  /**
   * Milliseconds `ready()` waits for the server's answer before it rejects with a 503. Default
   * 5000 ({@link STORE_TIMEOUT_MS}).
   */
  readonly readyTimeout?: number | undefined;
}

/**
 * Settles like `work`, or with {@link TIMED_OUT} once `ms` have passed, whichever comes first; the
 * timer is cleared either way and never keeps the process alive. `work` itself goes on.
 *
 * @param work - what to wait for
 * @param ms - the bound. Default {@link STORE_TIMEOUT_MS}
 * @returns the value of `work`, or `TIMED_OUT`
 * @example
 * ```ts
 * if ((await boundedWait(statementEnded)) === TIMED_OUT) connection.destroy();
 * ```
 */
export function boundedWait<T>(
  work: Promise<T>,
  ms: number = STORE_TIMEOUT_MS,
): Promise<T | typeof TIMED_OUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(resolve, ms, TIMED_OUT);
    (timer as { unref?: () => void }).unref?.();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * Reads a store's `readyTimeout` option: a whole number of milliseconds, at least 1.
 *
 * @param factory - the store's factory, for the message
 * @param value - the option as given
 * @returns the bound, {@link STORE_TIMEOUT_MS} when not given
 * @throws TypeError naming the option when it is not a whole number of milliseconds
 * @example
 * ```ts
 * const readyTimeout = readyTimeoutOption('redisStore', options.readyTimeout);
 * ```
 */
export function readyTimeoutOption(factory: string, value: unknown): number {
  const range = { min: 1, max: MAX_TIMER_MS };
  return wholeNumber(factory, 'readyTimeout', value, range, STORE_TIMEOUT_MS);
}

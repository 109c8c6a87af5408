/** The relay's back-off: how long a failed event waits before its next attempt. */
export interface RetryBackoff {
  /** Milliseconds before the second attempt (before jitter). */
  readonly baseMs: number;
  /** The longest wait, whatever the attempt. */
  readonly capMs: number;
}

/**
 * Exponential back-off with "equal jitter": the wait doubles per failed attempt up to the cap, and
 * half of it is drawn at random, so that relays retrying the same outage spread out, while each wait
 * still grows (full jitter can draw 0 and retry a failing receiver at once).
 *
 * @param attempts - failed deliveries so far, at least 1
 * @param backoff - the base and cap
 * @param random - a number in [0, 1): `Math.random` unless a test fixes it
 * @returns milliseconds to wait, within [half of the exponential wait, the exponential wait]
 * @example
 * ```ts
 * retryDelay(3, { baseMs: 1000, capMs: 60_000 }); // between 2000 and 4000
 * ```
 */
export function retryDelay(
  attempts: number,
  backoff: RetryBackoff,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

/** The error an aborted operation rejects with: the signal's reason when it is an `Error`. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new Error('The store operation was aborted.', { cause: reason });
}

/**
 * Settles like `work`, or rejects with the abort reason as soon as `signal` fires, whichever comes
 * first. `work` itself goes on; `onLate` receives its value if it arrives after the abort, so that
 * what it holds (a pooled connection) can be given back.
 *
 * @param work - the pending operation
 * @param signal - the signal to honour
 * @param onLate - called with the value `work` resolves to after the abort
 * @returns the value of `work`
 */
export function raceSignal<T>(
  work: Promise<T>,
  signal: AbortSignal,
  onLate?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let aborted = false;
    const onAbort = (): void => {
      aborted = true;
      reject(abortError(signal));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (aborted) onLate?.(value);
        else resolve(value);
      },
      (error: Error) => {
        signal.removeEventListener('abort', onAbort);
        // After an abort the caller has its answer; a late failure has nobody left to tell.
        if (!aborted) reject(error);
      },
    );
  });
}

/** The calls a gate let through and has not seen settle: what its `close()` waits for. */
export interface UnderWay {
  /** Keeps `work` until it settles; returns it as it is. */
  readonly track: <T>(work: Promise<T>) => Promise<T>;
  /** Resolves once nothing is under way, calls tracked meanwhile included; then runs `drain`. */
  settled(drain?: () => Promise<void>): Promise<void>;
}

/**
 * The set of calls under way of one store or sink gate.
 *
 * @returns an empty set
 * @example
 * ```ts
 * const calls = underWay();
 * const answer = calls.track(insert(plant));
 * await calls.settled(); // at close()
 * ```
 */
export function underWay(): UnderWay {
  const calls = new Set<Promise<unknown>>();
  return {
    track: (work) => {
      calls.add(work);
      const forget = (): void => void calls.delete(work);
      work.then(forget, forget);
      return work;
    },
    async settled(drain) {
      while (calls.size > 0) await Promise.allSettled([...calls]);
      await drain?.();
    },
  };
}

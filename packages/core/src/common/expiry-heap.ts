/** Keys ordered by expiry: the earliest is read in O(1) and taken off in O(log n). */
export interface ExpiryHeap {
  /** How many entries it holds. */
  readonly size: number;
  /** The earliest expiry held, or `Infinity` when it holds none. */
  earliest(): number;
  /** Adds `key`, expiring at `expiresAt`; a key added twice is held twice. */
  push(key: string, expiresAt: number): void;
  /** Takes off the entry of the earliest expiry (of equal ones, any) and returns its key. */
  pop(): string | undefined;
  /** Drops every entry. */
  clear(): void;
}

/**
 * A binary min-heap of keys by expiry. Entries are kept in two parallel arrays, the expiries as
 * numbers and the keys beside them, so that an entry costs two array slots and no object.
 *
 * @returns an empty heap
 * @example
 * ```ts
 * const heap = expiryHeap();
 * heap.push('b', 2_000);
 * heap.push('a', 1_000);
 * while (heap.earliest() <= now) forget(heap.pop());
 * ```
 */
export function expiryHeap(): ExpiryHeap {
  const times: number[] = [];
  const keys: string[] = [];

  // Both sifts carry the moving entry in hand and shift the others into its hole (one write per
  // level instead of a swap), then return the index where it belongs.
  const move = (from: number, to: number): void => {
    times[to] = times[from] as number;
    keys[to] = keys[from] as string;
  };
  const siftUp = (expiresAt: number, start: number): number => {
    let hole = start;
    while (hole > 0) {
      const parent = (hole - 1) >> 1;
      if ((times[parent] as number) <= expiresAt) break;
      move(parent, hole);
      hole = parent;
    }
    return hole;
  };
  const siftDown = (expiresAt: number): number => {
    const { length } = times;
    let hole = 0;
    for (let child = 1; child < length; child = 2 * hole + 1) {
      if (child + 1 < length && (times[child + 1] as number) < (times[child] as number)) child += 1;
      if (expiresAt <= (times[child] as number)) break;
      move(child, hole);
      hole = child;
    }
    return hole;
  };
  const place = (at: number, key: string, expiresAt: number): void => {
    times[at] = expiresAt;
    keys[at] = key;
  };

  return {
    get size() {
      return times.length;
    },
    earliest: () => (times.length === 0 ? Number.POSITIVE_INFINITY : (times[0] as number)),
    push(key, expiresAt) {
      place(siftUp(expiresAt, times.length), key, expiresAt);
    },
    pop() {
      if (times.length === 0) return undefined;
      const key = keys[0];
      // The last entry fills the root's hole and sinks to its place.
      const lastTime = times.pop() as number;
      const lastKey = keys.pop() as string;
      if (times.length > 0) place(siftDown(lastTime), lastKey, lastTime);
      return key;
    },
    clear() {
      times.length = 0;
      keys.length = 0;
    },
  };
}

/**
 * The nearest-rank percentile of values sorted in ascending order.
 *
 * @param sorted - the values, ascending
 * @param share - the share below, e.g. `0.99` for p99
 * @returns the value at that rank; 0 when there are none
 */
export function percentile(sorted: ArrayLike<number>, share: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
}

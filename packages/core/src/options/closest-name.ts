// "Did you mean" for a misspelt option: the closest known name, if one is close enough that it is
// surely what was meant. Runs only on the way to a TypeError at start-up, so plain loops are fine.

/** Past this many edits a name is another word, not a typo of it. */
const MAX_EDITS = 2;

/**
 * Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: the optimal string
 * alignment form of the Damerau-Levenshtein distance, stopped early once it exceeds `limit`.
 */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // Three rows of the table: the one before the previous, the previous and the current.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? limit + 1;
}

/**
 * The known name a misspelt one most likely meant: one that differs only in case, else the one at
 * the fewest edits (at most two; the first listed on a tie).
 *
 * @param name - the unknown name as given
 * @param known - every accepted name
 * @returns the suggestion, or `undefined` when no name is close
 * @example
 * ```ts
 * closestName('storeTimout', new Set(['storeTimeout', 'bodyTimeout'])); // 'storeTimeout'
 * ```
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  let closest: string | undefined;
  let fewest = MAX_EDITS + 1;
  for (const candidate of known) {
    if (candidate.toLowerCase() === lower) return candidate;
    const edits = editDistance(name, candidate, MAX_EDITS);
    if (edits < fewest) {
      closest = candidate;
      fewest = edits;
    }
  }
  return closest;
}

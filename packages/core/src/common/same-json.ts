/**
 * Whether two JSON values are the same: equal primitives, arrays with the same items in order,
 * objects with the same keys (in any order) and the same values.
 *
 * @param a - a JSON value
 * @param b - another
 * @returns true when they are the same
 * @example
 * ```ts
 * sameJson({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }); // true
 * ```
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]))
    );
  }
  const keysA = Object.keys(a);
  const recordB = b as Record<string, unknown>;
  return (
    keysA.length === Object.keys(b).length &&
    keysA.every(
      (key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], recordB[key]),
    )
  );
}

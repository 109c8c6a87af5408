/**
 * Freezes a value and everything reachable from it, without recursion (a deep value cannot overflow
 * the stack) and visiting each object once.
 *
 * @param value - a tree of plain objects and arrays
 * @returns the same value, frozen
 * @example
 * ```ts
 * const principal = deepFreeze({ subject: 'alice', scopes: ['plants:write'], claims });
 * ```
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item === 'object' && item !== null && !Object.isFrozen(item)) {
      Object.freeze(item);
      for (const child of Object.values(item)) stack.push(child);
    }
  }
  return value;
}

import { describeValue, optionError } from '@plantstore/core/adapter';
import type { Factory } from './clients';

/**
 * A key prefix: any string, default `fallback`. Braces are refused: the store puts the hash tag
 * (`{…}`) around the id itself, and a brace in the prefix would move every key into one slot.
 *
 * @throws TypeError when `prefix` is not a string, or holds `{` or `}`
 */
export function prefixOption(factory: Factory, prefix: unknown, fallback: string): string {
  if (prefix === undefined) return fallback;
  if (typeof prefix === 'string' && !/[{}]/.test(prefix)) return prefix;
  return optionError(factory, 'prefix', 'must be a string without { or }', describeValue(prefix));
}

import {
  checkKnownOptions,
  describeValue,
  nonNegativeNumber,
  optionError,
  wholeNumber,
  type Factory,
} from '../options/check-options';

/** A checked `cache` option: its limits, every default applied, or `false` for no cache. */
export type TokenCacheConfig = { readonly max: number; readonly maxAgeMs: number } | false;

const KNOWN_CACHE = new Set(['max', 'maxAgeMs']);

/**
 * Checks the `cache` option of a verifier that caches accepted tokens (`jwtBearer`,
 * `tokenIntrospection`): `false`, or `{ max, maxAgeMs }` with unknown names refused.
 *
 * @param factory - the factory that was called
 * @param value - the `cache` option
 * @param defaultMaxAgeMs - how long an entry is trusted by default
 * @returns the limits (`max` 1000 by default), or `false`
 * @throws TypeError naming `cache`, `cache.max` or `cache.maxAgeMs`
 * @example
 * ```ts
 * tokenCacheOptions('jwtBearer', { max: 500 }, 300_000); // { max: 500, maxAgeMs: 300000 }
 * ```
 */
export function tokenCacheOptions(
  factory: Factory,
  value: unknown,
  defaultMaxAgeMs: number,
): TokenCacheConfig {
  if (value === false) return false;
  const cache: unknown = value === undefined ? {} : value;
  if (typeof cache !== 'object' || cache === null || Array.isArray(cache)) {
    return optionError(
      factory,
      'cache',
      'must be false or { max, maxAgeMs }',
      describeValue(value),
    );
  }
  checkKnownOptions(factory, cache, KNOWN_CACHE, 'cache.');
  return {
    max: wholeNumber(factory, 'cache.max', cache['max'], { min: 1, max: 2 ** 24 }, 1000),
    maxAgeMs: nonNegativeNumber(factory, 'cache.maxAgeMs', cache['maxAgeMs']) ?? defaultMaxAgeMs,
  };
}

// The structural limits of a plant body, written once: the strict JSON reader, the path for bodies a
// host parser already read, the schema and the store conformance kit all take them from here.

/**
 * The largest int64, the top of the `id` range.
 *
 * @example
 * ```ts
 * readPlantJson('{"id":9223372036854775807}').id === INT64_MAX; // true
 * ```
 */
export const INT64_MAX = 9223372036854775807n;

/**
 * The smallest int64, the bottom of the `id` range.
 *
 * @example
 * ```ts
 * readPlantJson('{"id":-9223372036854775808}').id === INT64_MIN; // true
 * ```
 */
export const INT64_MIN = -9223372036854775808n;

/** Stands for any integer past the top of the range: the schema reports it as out of range. */
export const ABOVE_INT64 = INT64_MAX + 1n;

/** Stands for any integer past the bottom of the range. */
export const BELOW_INT64 = INT64_MIN - 1n;

/** The deepest nesting of objects and arrays accepted, the body itself being level 1. */
export const MAX_DEPTH = 64;

/**
 * Whether a member name is refused wherever it appears: these two reach an object's prototype when a
 * body is later merged or copied by code that does not expect them.
 *
 * @param key - a member name
 * @returns whether the body must be refused (`body_forbidden_key`)
 * @example
 * ```ts
 * isForbiddenKey('__proto__'); // true
 * ```
 */
export function isForbiddenKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor';
}

/** The reserved names, for readers that look them up on an object rather than compare a key. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor'];

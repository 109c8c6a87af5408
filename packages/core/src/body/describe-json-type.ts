import { INT64_MAX, INT64_MIN } from './body-limits';

/**
 * Names the type of a value, never the value: messages must not echo what a client sent.
 *
 * @param value - a candidate's member, or a body a host parser made
 * @returns an indefinite noun phrase such as `a string`
 * @example
 * ```ts
 * describeJsonType(1.5); // 'a number with a fraction'
 * ```
 */
export function describeJsonType(value: unknown): string {
  switch (typeof value) {
    case 'undefined':
      return 'nothing';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return value > INT64_MAX || value < INT64_MIN
        ? 'an integer outside the int64 range'
        : 'an integer';
    case 'number':
      if (Number.isNaN(value)) return 'a number that is not a number (NaN)';
      if (!Number.isFinite(value)) return 'an integer outside the int64 range';
      return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? 'an array' : 'an object';
    default:
      return 'an unsupported value';
  }
}

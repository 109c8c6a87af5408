import process from 'node:process';

/**
 * A bench's whole-number setting from the environment, or its default: a count of rounds, pairs,
 * seconds or connections. Anything else stops the bench before it measures.
 *
 * @param {string} name - the environment variable, such as `GUARD_ROUNDS`
 * @param {number} fallback - the value when it is not set
 * @returns {number} the setting
 * @example
 * const ROUNDS = wholeSetting('GUARD_ROUNDS', 5);
 */
export function wholeSetting(name, fallback) {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new TypeError(`${name} must be a whole number ≥ 1`);
  return value;
}

import type { Factory } from './clients';

/**
 * Checks that `options` is an object naming only known options, as every factory of the package
 * requires: a misspelt option is a `TypeError` at start-up, not a setting silently ignored.
 *
 * @param factory - who is checking, for the message
 * @param options - what the caller passed
 * @param names - the options the factory knows
 * @returns `options`, typed
 * @throws TypeError when `options` is not an object, or names an unknown option
 */
export function checkedOptions<T extends object>(
  factory: Factory,
  options: unknown,
  names: readonly string[],
): T {
  const expected = names.join(', ');
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(
      `${factory}: expected options { ${expected} }; received ${String(options)}.`,
    );
  }
  const stranger = Object.keys(options).find((name) => !names.includes(name));
  if (stranger !== undefined) {
    throw new TypeError(`${factory}: unknown option \`${stranger}\` (expected ${expected}).`);
  }
  return options as T;
}

/**
 * A count option: a whole number from 1 to a million, or `fallback` when it is not given.
 *
 * @throws TypeError when it is anything else
 */
export function countOption(
  factory: Factory,
  name: string,
  value: unknown,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const fits = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 1e6;
  if (fits) return value;
  const shown = typeof value === 'number' ? String(value) : typeof value;
  throw new TypeError(
    `${factory}: \`${name}\` must be a whole number from 1 to 1000000; received ${shown}.`,
  );
}

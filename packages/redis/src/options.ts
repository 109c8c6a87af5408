import type { Factory } from './clients';

/**
 * The options object, checked to name only `known` ones: a misspelt option is a `TypeError` when the
 * store is made, not a setting silently ignored.
 *
 * @throws TypeError when `options` is not an object or names an option the factory does not know
 */
export function knownOptions<T extends object>(
  factory: Factory,
  options: unknown,
  known: readonly (keyof T & string)[],
): T {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(
      `${factory}: expected an options object with \`client\`; received ${String(options)}.`,
    );
  }
  for (const name of Object.keys(options)) {
    if (!(known as readonly string[]).includes(name)) {
      throw new TypeError(`${factory}: unknown option \`${name}\`; it takes ${known.join(', ')}.`);
    }
  }
  return options as T;
}

/**
 * A key prefix: any string, default `fallback`. Braces are refused: the store puts the hash tag
 * (`{…}`) around the id itself, and a brace in the prefix would move every key into one slot.
 *
 * @throws TypeError when `prefix` is not a string, or holds `{` or `}`
 */
export function prefixOption(factory: Factory, prefix: unknown, fallback: string): string {
  if (prefix === undefined) return fallback;
  if (typeof prefix === 'string' && !/[{}]/.test(prefix)) return prefix;
  const shown = typeof prefix === 'string' ? JSON.stringify(prefix) : typeof prefix;
  throw new TypeError(`${factory}: \`prefix\` must be a string without { or }; received ${shown}.`);
}

/**
 * `waitReplicas`: 0 (the default: acknowledged once the master has the write) up to 100.
 *
 * @throws TypeError for anything but a whole number in that range
 */
export function replicasOption(factory: Factory, replicas: unknown): number {
  if (replicas === undefined) return 0;
  if (
    typeof replicas === 'number' &&
    Number.isInteger(replicas) &&
    replicas >= 0 &&
    replicas <= 100
  ) {
    return replicas;
  }
  const shown = typeof replicas === 'number' ? String(replicas) : typeof replicas;
  throw new TypeError(
    `${factory}: \`waitReplicas\` must be a whole number from 0 to 100; received ${shown}.`,
  );
}

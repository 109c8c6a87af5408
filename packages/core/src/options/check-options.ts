// The one place options are checked: every factory of the core (createPlantService, jwtBearer,
// createOpenApiDocument) and of every store package (through `@plantstore/core/adapter`) fails the
// same way, with a TypeError that names the factory, the option, what it must be and what came
// (never a string's content: it may be a secret).

import { closestName } from './closest-name';

/** The core's own factories, named so that a typo among them does not compile. */
type CoreFactory =
  | 'Plantstore'
  | 'jwtBearer'
  | 'tokenIntrospection'
  | 'createOpenApiDocument'
  | 'addPlantRoute'
  | 'dpopBinding'
  | 'certificateBinding'
  | 'memoryReplayStore'
  // The identity-provider presets (auth/presets/), each a function returning jwtBearer's options.
  | 'auth0'
  | 'entraId'
  | 'entraIdMultiTenant'
  | 'okta'
  | 'cognito'
  | 'keycloak'
  | 'firebase'
  | 'supabase'
  | 'clerk'
  | 'zitadel'
  | 'authentik'
  | 'oryHydra';

/**
 * Who is checking: the message starts with this name, such as `jwtBearer`, `Plantstore` or a
 * store package's `postgresStore`. Any package's factory name is accepted; the core's own are
 * suggested first.
 */
export type Factory = CoreFactory | (string & Record<never, never>);

/**
 * Describes a received value for an error message without printing a string's content.
 *
 * @param value - anything
 * @returns a short description such as `a string of 12 characters`, `-1` or `an array of 2 items`
 * @example
 * ```ts
 * describeValue('hunter2'); // 'a string of 7 characters'
 * ```
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return `an instance of ${typeof name === 'string' ? name : 'Object'}`;
}

/**
 * Throws the `TypeError` of a misconfigured option.
 *
 * @param factory - the factory that was called
 * @param option - the option's name (`jwks.timeoutMs` for a nested one)
 * @param expected - what it must be, starting with a verb: `must be a function`
 * @param received - what came, from {@link describeValue}
 * @returns never
 * @throws TypeError always
 * @example
 * ```ts
 * optionError('jwtBearer', 'clockTolerance', 'must be a non-negative number', describeValue(-1));
 * ```
 */
export function optionError(
  factory: Factory,
  option: string,
  expected: string,
  received: string,
): never {
  throw new TypeError(`${factory}: option "${option}" ${expected}; received ${received}`);
}

/**
 * Refuses an options value that is not a plain object, and any name not in `known`, so that a typo
 * such as `audiance` fails at start-up instead of silently disabling a check; the message names the
 * closest known name when one is near (`unknown option "audiance" (did you mean "audience"?)`).
 *
 * @param factory - the factory that was called
 * @param options - what the host passed
 * @param known - every accepted name
 * @param prefix - the enclosing option's name, for nested objects (`jwks.`)
 * @throws TypeError for a value that is not an object, or an unknown name
 * @example
 * ```ts
 * checkKnownOptions('Plantstore', { storeTimout: 5 }, KNOWN);
 * // TypeError: Plantstore: unknown option "storeTimout" (did you mean "storeTimeout"?)
 * ```
 */
export function checkKnownOptions<T>(
  factory: Factory,
  options: T,
  known: ReadonlySet<string>,
  prefix = '',
): asserts options is T & Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    optionError(
      factory,
      prefix === '' ? 'options' : prefix.slice(0, -1),
      'must be an object',
      describeValue(options),
    );
  }
  for (const name of Object.keys(options)) {
    if (known.has(name)) continue;
    const meant = closestName(name, known);
    const hint = meant === undefined ? '' : ` (did you mean "${prefix}${meant}"?)`;
    throw new TypeError(`${factory}: unknown option "${prefix}${name}"${hint}`);
  }
}

/** Bounds of a whole-number option. */
export interface WholeNumberRange {
  readonly min: number;
  readonly max: number;
}

/**
 * A whole number within a range, or the default when absent.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @param range - the smallest and largest value allowed
 * @param fallback - the default
 * @returns the number
 * @throws TypeError when it is not a whole number within the range
 */
export function wholeNumber(
  factory: Factory,
  option: string,
  value: unknown,
  range: WholeNumberRange,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < range.min ||
    value > range.max
  ) {
    optionError(
      factory,
      option,
      `must be a whole number from ${range.min} to ${range.max}`,
      describeValue(value),
    );
  }
  return value;
}

/** Milliseconds a timer can wait: `setTimeout` fires at once for anything longer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The range of a `Retry-After` option, in seconds: at least one, at most a day. */
export const RETRY_AFTER_RANGE: WholeNumberRange = { min: 1, max: 86_400 };

/**
 * A non-negative, finite number (seconds or milliseconds of a duration), or undefined when absent.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @returns the number, or undefined
 * @throws TypeError for a negative, infinite or non-number value
 */
export function nonNegativeNumber(
  factory: Factory,
  option: string,
  value: unknown,
): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    optionError(factory, option, 'must be a non-negative number', describeValue(value));
  }
  return value;
}

/**
 * A function, or undefined when absent.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @returns the function, or undefined
 * @throws TypeError for anything else
 */
export function optionalFunction<T>(
  factory: Factory,
  option: string,
  value: unknown,
): T | undefined {
  if (value !== undefined && typeof value !== 'function') {
    optionError(factory, option, 'must be a function', describeValue(value));
  }
  return value as T | undefined;
}

/**
 * A boolean, false when absent.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @returns the boolean
 * @throws TypeError for anything else
 */
export function optionalBoolean(factory: Factory, option: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    optionError(factory, option, 'must be a boolean', describeValue(value));
  }
  return value === true;
}

// Printable ASCII without `"` and `\`: what can stand inside a quoted-string of a header as it is.
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/u;

/**
 * A non-empty text that can go into a quoted header parameter unescaped (a realm, a scope).
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @returns the text
 * @throws TypeError for anything else
 */
export function quotableText(factory: Factory, option: string, value: unknown): string {
  if (typeof value !== 'string' || !QUOTABLE.test(value)) {
    optionError(
      factory,
      option,
      'must be printable ASCII without quotes or backslashes',
      describeValue(value),
    );
  }
  return value;
}

/** How {@link stringList} reads a list. */
export interface StringListRule {
  /** Each item must match it. */
  readonly pattern: RegExp;
  /** What the items must be, for the message: `non-empty strings`. */
  readonly items: string;
  /** Whether an empty list is accepted (for an issuer or an audience it would refuse every token). */
  readonly emptyAllowed: boolean;
}

/**
 * A string or a list of strings, each matching the rule's pattern, as a new list (later changes to the
 * caller's array must not change what is checked), or undefined when absent.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @param rule - the items' pattern and name, and whether the list may be empty
 * @returns the list, or undefined
 * @throws TypeError for anything else
 * @example
 * ```ts
 * stringList('jwtBearer', 'audience', 'plants', { pattern: /^./s, items: 'non-empty strings', emptyAllowed: false });
 * ```
 */
export function stringList(
  factory: Factory,
  option: string,
  value: unknown,
  rule: StringListRule,
): string[] | undefined {
  if (value === undefined) return undefined;
  const list: unknown[] = Array.isArray(value) ? value : [value];
  const valid = list.every((item) => typeof item === 'string' && rule.pattern.test(item));
  if (valid && (list.length > 0 || rule.emptyAllowed)) return [...list] as string[];
  return optionError(factory, option, `must hold ${rule.items}`, describeValue(value));
}

import { type Factory, nonNegativeNumber, optionError } from './check-options';

// jose's duration words, without signs or "ago": a maximum age is never negative.
const DURATION =
  /^(\d+(?:\.\d+)?) ?(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)$/i;
const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  y: 31557600,
};
/**
 * Reads `maxTokenAge`: seconds, or a duration in jose's words (`'2 hours'`, `'90 min'`).
 *
 * @param value - the option
 * @param option - its name in error messages (`issuers[1].maxTokenAge` for an issuer's)
 * @param factory - the function it is an option of
 * @returns seconds, or undefined when absent
 * @throws TypeError for a negative number or an unreadable duration
 * @example
 * ```ts
 * tokenAge('1.5h'); // 5400
 * ```
 */
export function tokenAge(
  value: unknown,
  option = 'maxTokenAge',
  factory: Factory = 'jwtBearer',
): number | undefined {
  if (typeof value !== 'string') return nonNegativeNumber(factory, option, value);
  const match = DURATION.exec(value);
  const unit = UNIT_SECONDS[match?.[2]?.charAt(0).toLowerCase() ?? ''];
  if (match === null || unit === undefined) {
    return optionError(factory, option, 'must be seconds or a duration like 2 hours', `"${value}"`);
  }
  return Math.round(Number(match[1]) * unit);
}

import { ABOVE_INT64, BELOW_INT64, INT64_MAX, INT64_MIN } from './body-limits';

/** Where a JSON number's parts lie in the text, as the reader found them. */
export interface NumberSpans {
  readonly negative: boolean;
  /** The integer digits: `intStart` up to, not including, `intEnd`. */
  readonly intStart: number;
  readonly intEnd: number;
  /** The fraction digits after the `.` (an empty span when there is none). */
  readonly fracStart: number;
  readonly fracEnd: number;
  /** The exponent's value, saturated far beyond any text length. */
  readonly exponent: number;
}

/** What a number that keeps a fraction is reported as: the schema names it "a number with a fraction". */
export const NOT_INTEGER = 0.5;

/**
 * Classifies a JSON number exactly from its digits, never through a float: `1.0` and `1e2` are
 * integers, `1.5` is not, and `9007199254740993` stays that. At most about 20 digits are ever made
 * into a BigInt, whatever the text, so the work is bounded.
 *
 * @param t - the body text
 * @param spans - where the number's parts lie
 * @returns the integer as a bigint, {@link ABOVE_INT64} or {@link BELOW_INT64} past the int64 range, or
 *   {@link NOT_INTEGER}
 * @example
 * ```ts
 * exactInteger('1e2', { negative: false, intStart: 0, intEnd: 1, fracStart: 1, fracEnd: 1, exponent: 2 }); // 100n
 * ```
 */
export function exactInteger(t: string, spans: NumberSpans): bigint | number {
  const { negative, intStart, intEnd, fracStart, fracEnd, exponent } = spans;
  // The significand is the int digits then the fraction digits; `at` maps its index to the text.
  const intLen = intEnd - intStart;
  const fracLen = fracEnd - fracStart;
  const total = intLen + fracLen;
  const at = (k: number) => (k < intLen ? intStart + k : fracStart + k - intLen);
  let first = 0;
  while (first < total && t.charCodeAt(at(first)) === 0x30) first++;
  if (first === total) return 0n;
  let last = total - 1;
  while (t.charCodeAt(at(last)) === 0x30) last--;
  // Value = digits[first..last] × 10^scale, and those digits end in a non-zero one.
  const scale = exponent - fracLen + (total - 1 - last);
  if (scale < 0) return NOT_INTEGER;
  if (last - first + 1 + scale > 19) return negative ? BELOW_INT64 : ABOVE_INT64;
  const digits =
    last < intLen || first >= intLen
      ? t.slice(at(first), at(last) + 1)
      : t.slice(at(first), intEnd) + t.slice(fracStart, at(last) + 1);
  const magnitude = BigInt(digits) * 10n ** BigInt(scale);
  const value = negative ? -magnitude : magnitude;
  if (value > INT64_MAX) return ABOVE_INT64;
  if (value < INT64_MIN) return BELOW_INT64;
  return value;
}

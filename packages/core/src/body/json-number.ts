import { exactInteger } from './exact-integer';
import { ASCII_CASE_BIT, Char, isDigit } from './json-characters';

// Far beyond any string length, so a saturated exponent still gives the right verdict.
const EXPONENT_CAP = 1e12;

/** The reader's position in the body text, and how it words a refusal. */
export interface JsonCursor {
  readonly text: string;
  offset: number;
  unexpected(offset?: number): Error;
}

/**
 * A number: an optional `-`, the integer part (`0`, or digits not starting with 0), an optional
 * fraction, an optional exponent; the cursor ends past it. When building, classifies the value
 * exactly from its digits.
 *
 * @param reader - the cursor, at the number's first code unit
 * @param build - whether the value is kept
 * @returns the exact value (see `exactInteger`), or `undefined` when not kept
 * @throws the reader's `body_not_json` refusal where the grammar breaks
 * @example
 * ```ts
 * readNumber({ text: '1e2', offset: 0, unexpected }, true); // 100n
 * ```
 */
export function readNumber(reader: JsonCursor, build: boolean): bigint | number | undefined {
  const { text } = reader;
  let offset = reader.offset;
  const negative = text.charCodeAt(offset) === Char.Minus;
  if (negative) offset++;
  // The integer part.
  const intStart = offset;
  if (text.charCodeAt(offset) === Char.DigitZero) offset++;
  else if (isDigit(text.charCodeAt(offset))) while (isDigit(text.charCodeAt(++offset)));
  else throw reader.unexpected(offset);
  const intEnd = offset;
  // The fraction: `.` and at least one digit.
  let fracStart = offset;
  if (text.charCodeAt(offset) === Char.DecimalPoint) {
    fracStart = ++offset;
    if (!isDigit(text.charCodeAt(offset))) throw reader.unexpected(offset);
    while (isDigit(text.charCodeAt(++offset)));
  }
  const fracEnd = offset;
  // The exponent: `e` or `E`, an optional sign, at least one digit.
  let exponent = 0;
  if ((text.charCodeAt(offset) | ASCII_CASE_BIT) === Char.LetterE) {
    const sign = text.charCodeAt(++offset);
    if (sign === Char.Plus || sign === Char.Minus) offset++;
    if (!isDigit(text.charCodeAt(offset))) throw reader.unexpected(offset);
    for (; isDigit(text.charCodeAt(offset)); offset++) {
      if (exponent < EXPONENT_CAP) {
        exponent = exponent * 10 + text.charCodeAt(offset) - Char.DigitZero;
      }
    }
    if (sign === Char.Minus) exponent = -exponent;
  }
  reader.offset = offset;
  if (!build) return undefined;
  return exactInteger(text, { negative, intStart, intEnd, fracStart, fracEnd, exponent });
}

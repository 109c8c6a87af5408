/**
 * The UTF-16 code units the strict JSON reader looks at, by name (RFC 8259 §2, §6, §7). An enum,
 * not constants: the build inlines its members as numbers, so each comparison costs what a literal
 * does, where a module-level constant is a load. The reader compares code units rather than
 * one-character strings: `charCodeAt` allocates nothing.
 */
export enum Char {
  QuotationMark = 0x22, // "
  ReverseSolidus = 0x5c, // \
  BeginObject = 0x7b, // {
  EndObject = 0x7d, // }
  BeginArray = 0x5b, // [
  EndArray = 0x5d, // ]
  NameSeparator = 0x3a, // :
  ValueSeparator = 0x2c, // ,
  Minus = 0x2d, // -
  Plus = 0x2b, // +
  DecimalPoint = 0x2e, // .
  DigitZero = 0x30, // 0
  LetterE = 0x65, // e, the exponent (E folds to it with ASCII_CASE_BIT)
  LetterU = 0x75, // u, a \uXXXX escape
  LetterT = 0x74, // t, the first letter of true
  LetterN = 0x6e, // n, of null
  ByteOrderMark = 0xfeff,
  /** Also the lowest code unit a string may hold unescaped: U+0000 to U+001F must be escaped. */
  Space = 0x20,
  LineFeed = 0x0a,
  CarriageReturn = 0x0d,
  Tab = 0x09,
  DigitNine = 0x39,
  LetterA = 0x61,
  LetterF = 0x66, // f, of false, and a hexadecimal digit
}

/** ORed into an ASCII letter, it gives the lower-case letter. */
export const ASCII_CASE_BIT = 0x20;

/** Whether a code unit is 0 to 9 (false for NaN, past the end of the text). */
export function isDigit(unit: number): boolean {
  return unit >= Char.DigitZero && unit <= Char.DigitNine;
}

/** The value of one hexadecimal digit, either case, or -1 (also for NaN past the end). */
export function hexDigitValue(unit: number): number {
  if (isDigit(unit)) return unit - Char.DigitZero;
  const lower = unit | ASCII_CASE_BIT;
  return lower >= Char.LetterA && lower <= Char.LetterF ? lower - Char.LetterA + 10 : -1;
}

/** The code unit each one-letter escape (`\n`, `\"`, …) stands for, by the letter; -1 for no escape. */
export const ESCAPED_UNIT_OF = new Int8Array(0x80).fill(-1);
const ESCAPE_LETTERS = '"\\/bfnrt';
const ESCAPED_UNITS = '"\\/\b\f\n\r\t';
for (let index = 0; index < ESCAPE_LETTERS.length; index++) {
  ESCAPED_UNIT_OF[ESCAPE_LETTERS.charCodeAt(index)] = ESCAPED_UNITS.charCodeAt(index);
}

/** What the first code unit of a JSON value says it is, for the `body_not_object` message. */
export function kindOfValueStartingWith(unit: number): string {
  if (unit === Char.BeginArray) return 'an array';
  if (unit === Char.QuotationMark) return 'a string';
  if (unit === Char.LetterT || unit === Char.LetterF) return 'a boolean';
  if (unit === Char.LetterN) return 'null';
  return 'a number';
}

import { InvalidBodyError } from '../errors/client-errors';
import { isForbiddenKey, MAX_DEPTH } from './body-limits';
import {
  Char,
  ESCAPED_UNIT_OF,
  hexDigitValue,
  isDigit,
  kindOfValueStartingWith,
} from './json-characters';
import { readNumber } from './json-number';
import type { PlantCandidate } from './plant-candidate';

// Linear search beats hashing for the few keys real objects have; past this, a Set keeps it O(n).
const SMALL_OBJECT_KEYS = 8;
const HIGH_SURROGATES = { first: 0xd800, last: 0xdbff };
const LOW_SURROGATES = { first: 0xdc00, last: 0xdfff };
// `\uXXXX` is six code units long.
const UNICODE_ESCAPE_LENGTH = 6;

const notJson = (code: 'body_not_json' | 'body_too_deep', what: string, offset: number) =>
  new InvalidBodyError(code, `The body ${what} at offset ${offset}.`);

/**
 * One pass over the text, from `offset` on. Each method reads one grammar state of RFC 8259 and
 * leaves `offset` just past what it read. Recursion is bounded by MAX_DEPTH, since depth is checked
 * before descending. Methods that take `build` make the value only when it is kept (the members
 * `id`, `name` and `tag` of the top object); everything else is checked and skipped.
 */
class JsonReader {
  offset = 0;
  constructor(readonly text: string) {}

  /** Skips whitespace; returns the code unit it stops at (NaN at the end of the text). */
  skipWhitespace(): number {
    const { text } = this;
    let offset = this.offset;
    let unit = text.charCodeAt(offset);
    while (
      unit === Char.Space ||
      unit === Char.LineFeed ||
      unit === Char.CarriageReturn ||
      unit === Char.Tab
    ) {
      unit = text.charCodeAt(++offset);
    }
    this.offset = offset;
    return unit;
  }

  unexpected(offset = this.offset): InvalidBodyError {
    const what = offset >= this.text.length ? 'ends unexpectedly' : 'has an unexpected character';
    return notJson('body_not_json', `is not valid JSON: it ${what}`, offset);
  }

  /** Any value: its first code unit says which state comes next. */
  value(depth: number, build: boolean): unknown {
    const first = this.skipWhitespace();
    if (first === Char.QuotationMark) return this.string(build);
    if (first === Char.BeginObject) {
      this.object(depth + 1, false);
      return build ? (Object.create(null) as object) : undefined;
    }
    if (first === Char.BeginArray) {
      this.array(depth + 1);
      return build ? [] : undefined;
    }
    if (first === Char.Minus || isDigit(first)) return readNumber(this, build);
    if (first === Char.LetterT) return this.literal('true', true);
    if (first === Char.LetterF) return this.literal('false', false);
    if (first === Char.LetterN) return this.literal('null', null);
    throw this.unexpected();
  }

  /** `true`, `false` or `null`, letter by letter. */
  literal(word: string, result: boolean | null): boolean | null {
    for (let index = 0; index < word.length; index++) {
      const offset = this.offset + index;
      if (this.text.charCodeAt(offset) !== word.charCodeAt(index)) throw this.unexpected(offset);
    }
    this.offset += word.length;
    return result;
  }

  /** Steps over `[` or `{`, refusing first: that is what bounds the recursion. */
  enter(depth: number): void {
    if (depth > MAX_DEPTH) {
      throw notJson('body_too_deep', `nests deeper than ${MAX_DEPTH} levels`, this.offset);
    }
    this.offset++;
  }

  /** An array: `]` at once, or values separated by `,` up to `]`. Its values are never kept. */
  array(depth: number): void {
    this.enter(depth);
    if (this.skipWhitespace() === Char.EndArray) {
      this.offset++;
      return;
    }
    for (;;) {
      this.value(depth, false);
      const separator = this.skipWhitespace();
      this.offset++;
      if (separator === Char.EndArray) return;
      if (separator !== Char.ValueSeparator) throw this.unexpected(this.offset - 1);
    }
  }

  /**
   * An object: `}` at once, or members (a key, `:`, a value) separated by `,` up to `}`. Every key
   * is checked against the reserved names and the keys before it; at the top level the members
   * `id`, `name` and `tag` are kept, in a null-prototype candidate.
   */
  object(depth: number, top: boolean): PlantCandidate | undefined {
    this.enter(depth);
    const candidate = top ? (Object.create(null) as Record<string, unknown>) : undefined;
    // The keys so far: a list while the object is small, a Set once it is not.
    let keyList: string[] | undefined;
    let keySet: Set<string> | undefined;
    let next = this.skipWhitespace();
    if (next === Char.EndObject) {
      this.offset++;
      return candidate;
    }
    for (;;) {
      // A member's key.
      if (next !== Char.QuotationMark) throw this.unexpected();
      const keyOffset = this.offset;
      const key = this.string(true) as string;
      if (isForbiddenKey(key)) {
        throw new InvalidBodyError(
          'body_forbidden_key',
          `The body uses a reserved key name at offset ${keyOffset}; remove that member.`,
        );
      }
      let repeated = false;
      if (keySet !== undefined) {
        repeated = keySet.has(key);
        keySet.add(key);
      } else if (keyList === undefined) {
        keyList = [key];
      } else {
        repeated = keyList.includes(key);
        keyList.push(key);
        if (keyList.length > SMALL_OBJECT_KEYS) keySet = new Set(keyList);
      }
      if (repeated) {
        throw new InvalidBodyError(
          'body_duplicate_key',
          `The body repeats a key within one object at offset ${keyOffset}; each key may appear only once.`,
        );
      }
      // The `:` and the member's value.
      if (this.skipWhitespace() !== Char.NameSeparator) throw this.unexpected();
      this.offset++;
      const kept = candidate !== undefined && (key === 'id' || key === 'name' || key === 'tag');
      const value = this.value(depth, kept);
      if (kept) candidate[key] = value;
      // `}` ends the object, `,` announces the next member.
      const separator = this.skipWhitespace();
      this.offset++;
      if (separator === Char.EndObject) return candidate;
      if (separator !== Char.ValueSeparator) throw this.unexpected(this.offset - 1);
      next = this.skipWhitespace();
    }
  }

  /**
   * A string, from its opening quote to its closing one. Runs without escapes are sliced whole;
   * an escape is one letter (`\n`) or `\uXXXX`, and a surrogate escape must be a high one followed
   * by a low one. Raw control characters are refused.
   */
  string(build: boolean): string | undefined {
    const { text } = this;
    let offset = this.offset + 1;
    let runStart = offset;
    let built = '';
    for (;;) {
      const unit = text.charCodeAt(offset);
      if (unit === Char.QuotationMark) {
        this.offset = offset + 1;
        return build ? built + text.slice(runStart, offset) : undefined;
      }
      if (unit === Char.ReverseSolidus) {
        const decoded = this.escape(offset);
        if (build) built += text.slice(runStart, offset) + decoded;
        offset = runStart = this.offset;
      } else if (unit >= Char.Space) {
        // Not a control character: U+0000 to U+001F must be escaped, space is the first that need not.
        offset++;
      } else {
        throw Number.isNaN(unit)
          ? this.unexpected(offset)
          : notJson(
              'body_not_json',
              'is not valid JSON: it has a raw control character in a string',
              offset,
            );
      }
    }
  }

  /** The escape at `offset` (its backslash): returns what it stands for, and moves past it. */
  escape(offset: number): string {
    const { text } = this;
    const letter = text.charCodeAt(offset + 1);
    const escaped = letter < 0x80 ? (ESCAPED_UNIT_OF[letter] ?? -1) : -1;
    if (escaped >= 0) {
      this.offset = offset + 2;
      return String.fromCharCode(escaped);
    }
    if (letter !== Char.LetterU) throw this.unexpected(offset + 1);
    const high = this.hex4(offset + 2);
    const end = offset + UNICODE_ESCAPE_LENGTH;
    if (high < HIGH_SURROGATES.first || high > LOW_SURROGATES.last) {
      this.offset = end;
      return String.fromCharCode(high);
    }
    // A surrogate: only a high one, directly followed by a `\u` low one, makes a character.
    const pairs =
      high <= HIGH_SURROGATES.last &&
      text.charCodeAt(end) === Char.ReverseSolidus &&
      text.charCodeAt(end + 1) === Char.LetterU;
    const low = pairs ? this.hex4(end + 2) : -1;
    if (low < LOW_SURROGATES.first || low > LOW_SURROGATES.last) {
      throw new InvalidBodyError(
        'body_lone_surrogate',
        `The body has an unpaired surrogate escape at offset ${offset}; escape a character outside the BMP as a high and low \\u pair.`,
      );
    }
    this.offset = end + UNICODE_ESCAPE_LENGTH;
    return String.fromCharCode(high, low);
  }

  /** The four hexadecimal digits of a `\u` escape, starting at `offset`. */
  hex4(offset: number): number {
    let codeUnit = 0;
    for (let at = offset; at < offset + 4; at++) {
      const digit = hexDigitValue(this.text.charCodeAt(at));
      if (digit < 0) throw this.unexpected(at);
      codeUnit = (codeUnit << 4) | digit;
    }
    return codeUnit;
  }
}

/**
 * Reads the body of `POST /plants` as one strict JSON object (RFC 8259, one leading BOM allowed),
 * refusing duplicate and reserved keys, lone surrogates and nesting past 64, and keeping only `id`,
 * `name` and `tag`. Problems are reported in text order: the first one found wins.
 *
 * @param text - the decoded body text, possibly starting with U+FEFF
 * @returns a null-prototype {@link PlantCandidate} with the members present
 * @throws {@link InvalidBodyError} `body_empty`, `body_not_json`, `body_not_object`, `body_too_deep`,
 *   `body_duplicate_key`, `body_forbidden_key` or `body_lone_surrogate`; never any other error
 * @example
 * ```ts
 * readPlantJson('{"id":9007199254740993,"name":"Fern","x":[1]}'); // { id: 9007199254740993n, name: 'Fern' }
 * ```
 */
export function readPlantJson(text: string): PlantCandidate {
  const reader = new JsonReader(text);
  if (text.charCodeAt(0) === Char.ByteOrderMark) reader.offset = 1;
  const first = reader.skipWhitespace();
  if (reader.offset >= text.length) {
    throw new InvalidBodyError('body_empty', 'The body is empty; send one JSON object.');
  }
  // `isWellFormed` is ES2024 (Node 20 has it; the lib setting here is ES2023).
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
    throw new InvalidBodyError(
      'body_lone_surrogate',
      'The body contains an unpaired UTF-16 surrogate; send well-formed Unicode text.',
    );
  }
  // The whole text must be one value; only an object is a plant, but a broken array is reported
  // as broken JSON before it is reported as not an object.
  const candidate = first === Char.BeginObject ? reader.object(1, true) : reader.value(0, false);
  if (!Number.isNaN(reader.skipWhitespace())) throw reader.unexpected();
  if (first !== Char.BeginObject) {
    throw new InvalidBodyError(
      'body_not_object',
      `The body must be a JSON object, but it is ${kindOfValueStartingWith(first)}.`,
    );
  }
  return candidate as PlantCandidate;
}

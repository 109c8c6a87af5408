import { InvalidBodyError } from '../errors/client-errors';
import { isForbiddenKey, MAX_DEPTH } from './body-limits';
import { exactInteger } from './exact-integer';
import type { PlantCandidate } from './plant-candidate';

// Far beyond any string length, so a saturated exponent still gives the right verdict.
const EXPONENT_CAP = 1e12;
// Linear search beats hashing for the few keys real objects have; past this, a Set keeps it O(n).
const SMALL_OBJECT_KEYS = 8;

const fail = (code: 'body_not_json' | 'body_too_deep', what: string, at: number) =>
  new InvalidBodyError(code, `The body ${what} at offset ${at}.`);

/** Value of one hex digit, or -1 (also for NaN past the end). */
function hex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}

// The code unit each one-letter escape stands for; -1 marks letters that are no escape.
const ESCAPES = new Int8Array(0x80).fill(-1);
const ESCAPE_LETTERS = '"\\/bfnrt';
const ESCAPE_UNITS = '"\\/\b\f\n\r\t';
for (let k = 0; k < ESCAPE_LETTERS.length; k++) {
  ESCAPES[ESCAPE_LETTERS.charCodeAt(k)] = ESCAPE_UNITS.charCodeAt(k);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** One pass over the text; recursion is bounded by MAX_DEPTH because depth is checked before descending. */
class Reader {
  i = 0;
  constructor(readonly t: string) {}

  /** Skips RFC 8259 whitespace and returns the code unit there (NaN at the end). */
  ws(): number {
    const t = this.t;
    let i = this.i;
    let c = t.charCodeAt(i);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = t.charCodeAt(++i);
    this.i = i;
    return c;
  }

  unexpected(at = this.i): InvalidBodyError {
    const what = at >= this.t.length ? 'ends unexpectedly' : 'has an unexpected character';
    return fail('body_not_json', `is not valid JSON: it ${what}`, at);
  }

  value(depth: number, build: boolean): unknown {
    const c = this.ws();
    if (c === 0x22) return this.string(build);
    if (c === 0x7b) {
      this.object(depth + 1, false);
      return build ? (Object.create(null) as object) : undefined;
    }
    if (c === 0x5b) {
      this.array(depth + 1);
      return build ? [] : undefined;
    }
    if (c === 0x2d || isDigit(c)) return this.number(build);
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    throw this.unexpected();
  }

  literal(word: string, result: boolean | null): boolean | null {
    for (let k = 0; k < word.length; k++) {
      if (this.t.charCodeAt(this.i + k) !== word.charCodeAt(k)) throw this.unexpected(this.i + k);
    }
    this.i += word.length;
    return result;
  }

  /** Steps into an array or object, refusing first: that is what bounds the recursion. */
  enter(depth: number): void {
    if (depth > MAX_DEPTH) {
      throw fail('body_too_deep', `nests deeper than ${MAX_DEPTH} levels`, this.i);
    }
    this.i++;
  }

  array(depth: number): void {
    this.enter(depth);
    if (this.ws() === 0x5d) {
      this.i++;
      return;
    }
    for (;;) {
      this.value(depth, false);
      const c = this.ws();
      this.i++;
      if (c === 0x5d) return;
      if (c !== 0x2c) throw this.unexpected(this.i - 1);
    }
  }

  /** Reads an object; at the top level it also builds the candidate from `id`, `name` and `tag`. */
  object(depth: number, top: boolean): PlantCandidate | undefined {
    this.enter(depth);
    const out = top ? (Object.create(null) as Record<string, unknown>) : undefined;
    let seen: string[] | undefined;
    let many: Set<string> | undefined;
    let c = this.ws();
    if (c === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      if (c !== 0x22) throw this.unexpected();
      const at = this.i;
      const key = this.string(true) as string;
      if (isForbiddenKey(key)) {
        throw new InvalidBodyError(
          'body_forbidden_key',
          `The body uses a reserved key name at offset ${at}; remove that member.`,
        );
      }
      let repeated = false;
      if (many !== undefined) {
        repeated = many.has(key);
        many.add(key);
      } else if (seen === undefined) {
        seen = [key];
      } else {
        repeated = seen.includes(key);
        seen.push(key);
        if (seen.length > SMALL_OBJECT_KEYS) many = new Set(seen);
      }
      if (repeated) {
        throw new InvalidBodyError(
          'body_duplicate_key',
          `The body repeats a key within one object at offset ${at}; each key may appear only once.`,
        );
      }
      if (this.ws() !== 0x3a) throw this.unexpected();
      this.i++;
      const wanted = out !== undefined && (key === 'id' || key === 'name' || key === 'tag');
      const v = this.value(depth, wanted);
      if (wanted) out[key] = v;
      c = this.ws();
      this.i++;
      if (c === 0x7d) return out;
      if (c !== 0x2c) throw this.unexpected(this.i - 1);
      c = this.ws();
    }
  }

  /** Reads a string from its opening quote; builds it only when asked, slicing escape-free runs whole. */
  string(build: boolean): string | undefined {
    const t = this.t;
    let i = this.i + 1;
    let start = i;
    let out = '';
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x22) {
        this.i = i + 1;
        return build ? out + t.slice(start, i) : undefined;
      }
      if (c === 0x5c) {
        if (build) out += t.slice(start, i);
        const e = t.charCodeAt(i + 1);
        const unit = e < 0x80 ? (ESCAPES[e] ?? -1) : -1;
        if (unit >= 0) {
          if (build) out += String.fromCharCode(unit);
          i += 2;
        } else if (e === 0x75) {
          const hi = this.hex4(i + 2);
          i += 6;
          if (hi >= 0xd800 && hi <= 0xdfff) {
            const pairs = hi <= 0xdbff && t.charCodeAt(i) === 0x5c && t.charCodeAt(i + 1) === 0x75;
            const low = pairs ? this.hex4(i + 2) : -1;
            if (low < 0xdc00 || low > 0xdfff) {
              throw new InvalidBodyError(
                'body_lone_surrogate',
                `The body has an unpaired surrogate escape at offset ${i - 6}; escape a character outside the BMP as a high and low \\u pair.`,
              );
            }
            if (build) out += String.fromCharCode(hi, low);
            i += 6;
          } else if (build) out += String.fromCharCode(hi);
        } else {
          throw this.unexpected(i + 1);
        }
        start = i;
      } else if (c >= 0x20) {
        i++;
      } else {
        throw Number.isNaN(c)
          ? this.unexpected(i)
          : fail(
              'body_not_json',
              'is not valid JSON: it has a raw control character in a string',
              i,
            );
      }
    }
  }

  hex4(at: number): number {
    const t = this.t;
    let v = 0;
    for (let k = at; k < at + 4; k++) {
      const d = hex(t.charCodeAt(k));
      if (d < 0) throw this.unexpected(k);
      v = (v << 4) | d;
    }
    return v;
  }

  /** Checks the number grammar; when building, classifies the value exactly from its digits. */
  number(build: boolean): bigint | number | undefined {
    const t = this.t;
    let i = this.i;
    const negative = t.charCodeAt(i) === 0x2d;
    if (negative) i++;
    const intStart = i;
    if (t.charCodeAt(i) === 0x30) i++;
    else if (isDigit(t.charCodeAt(i))) while (isDigit(t.charCodeAt(++i)));
    else throw this.unexpected(i);
    const intEnd = i;
    let fracStart = i;
    if (t.charCodeAt(i) === 0x2e) {
      fracStart = ++i;
      if (!isDigit(t.charCodeAt(i))) throw this.unexpected(i);
      while (isDigit(t.charCodeAt(++i)));
    }
    const fracEnd = i;
    let exponent = 0;
    if ((t.charCodeAt(i) | 0x20) === 0x65) {
      const sign = t.charCodeAt(++i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(t.charCodeAt(i))) throw this.unexpected(i);
      for (; isDigit(t.charCodeAt(i)); i++) {
        if (exponent < EXPONENT_CAP) exponent = exponent * 10 + t.charCodeAt(i) - 0x30;
      }
      if (sign === 0x2d) exponent = -exponent;
    }
    this.i = i;
    if (!build) return undefined;
    return exactInteger(t, { negative, intStart, intEnd, fracStart, fracEnd, exponent });
  }
}

function kindOf(c: number): string {
  if (c === 0x5b) return 'an array';
  if (c === 0x22) return 'a string';
  if (c === 0x74 || c === 0x66) return 'a boolean';
  if (c === 0x6e) return 'null';
  return 'a number';
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
  const reader = new Reader(text);
  if (text.charCodeAt(0) === 0xfeff) reader.i = 1;
  const c = reader.ws();
  if (reader.i >= text.length) {
    throw new InvalidBodyError('body_empty', 'The body is empty; send one JSON object.');
  }
  // `isWellFormed` is ES2024 (Node 20 has it; the lib setting here is ES2023).
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
    throw new InvalidBodyError(
      'body_lone_surrogate',
      'The body contains an unpaired UTF-16 surrogate; send well-formed Unicode text.',
    );
  }
  const candidate = c === 0x7b ? reader.object(1, true) : reader.value(0, false);
  if (!Number.isNaN(reader.ws())) throw reader.unexpected();
  if (c !== 0x7b) {
    throw new InvalidBodyError(
      'body_not_object',
      `The body must be a JSON object, but it is ${kindOf(c)}.`,
    );
  }
  return candidate as PlantCandidate;
}

/** A structural problem the route must refuse even in grammatical JSON. */
export type StructuralCode =
  'body_duplicate_key' | 'body_forbidden_key' | 'body_lone_surrogate' | 'body_too_deep';

/** A JSON value's kind and its exact source text. */
export interface ValueSource {
  readonly kind: 'object' | 'array' | 'string' | 'number' | 'true' | 'false' | 'null';
  readonly text: string;
}

/** What {@link scanJson} found. */
export interface Scan {
  /** Offset of the first character the grammar does not allow; undefined when the text is JSON. */
  readonly grammarError: number | undefined;
  /** Structural problems with their offsets, in text order. */
  readonly problems: readonly { readonly at: number; readonly code: StructuralCode }[];
  /** The kind of the top-level value (undefined when there is none). */
  readonly top: ValueSource['kind'] | undefined;
  /** The top-level object's members, first occurrence of each decoded key, with their source. */
  readonly members: ReadonlyMap<string, ValueSource>;
}

const MAX_DEPTH = 64;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const SIMPLE_ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

interface Frame {
  readonly type: 'object' | 'array';
  readonly start: number;
  readonly keys: Set<string>;
  /** `value` once a value was read; in objects `key` after a key and its colon. */
  state: 'open' | 'value' | 'comma' | 'key';
}

class GrammarError extends Error {
  constructor(readonly at: number) {
    super(`grammar error at ${at}`);
  }
}

/**
 * A strict RFC 8259 scanner written apart from the route's reader, for the fuzz oracle: iterative
 * (an explicit stack, no recursion), regular expressions for numbers, `JSON.parse` to decode each
 * string. It reads the whole text even after a structural problem, so the grammar verdict can be
 * checked against `JSON.parse` of the whole body.
 *
 * @param text - the body text, BOM already removed
 * @returns the grammar verdict, the structural problems, and the top-level members' sources
 */
export function scanJson(text: string): Scan {
  const problems: { at: number; code: StructuralCode }[] = [];
  const members = new Map<string, ValueSource>();
  const stack: Frame[] = [];
  let i = 0;
  let top: ValueSource['kind'] | undefined;
  let pendingKey: string | undefined;

  const skip = (): void => {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i += 1;
  };

  /** Reads a string token at `i`; records lone surrogate escapes; returns the decoded text. */
  const readString = (): string => {
    const start = i;
    let j = i + 1;
    for (;;) {
      if (j >= text.length) throw new GrammarError(j);
      const c = text.charCodeAt(j);
      if (c === 0x22) break;
      if (c < 0x20) throw new GrammarError(j);
      if (c !== 0x5c) {
        j += 1;
        continue;
      }
      const escape = text[j + 1];
      if (escape !== undefined && SIMPLE_ESCAPES.has(escape)) {
        j += 2;
        continue;
      }
      if (escape !== 'u') throw new GrammarError(j + 1);
      HEX4.lastIndex = j + 2;
      if (!HEX4.test(text)) throw new GrammarError(j + 2);
      const unit = Number.parseInt(text.slice(j + 2, j + 6), 16);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        HEX4.lastIndex = j + 8;
        const low =
          text.startsWith('\\u', j + 6) && HEX4.test(text)
            ? Number.parseInt(text.slice(j + 8, j + 12), 16)
            : -1;
        if (low >= 0xdc00 && low <= 0xdfff) {
          j += 12;
          continue;
        }
        problems.push({ at: j, code: 'body_lone_surrogate' });
      } else if (unit >= 0xdc00 && unit <= 0xdfff) {
        problems.push({ at: j, code: 'body_lone_surrogate' });
      }
      j += 6;
    }
    i = j + 1;
    return JSON.parse(text.slice(start, i)) as string;
  };

  /** Reads a scalar at `i`, or opens a container; returns the value's source when it is a scalar. */
  const readValue = (): ValueSource | undefined => {
    const start = i;
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length + 1 > MAX_DEPTH) problems.push({ at: i, code: 'body_too_deep' });
      stack.push({ type: c === '{' ? 'object' : 'array', start, keys: new Set(), state: 'open' });
      i += 1;
      return undefined;
    }
    if (c === '"') {
      readString();
      return { kind: 'string', text: text.slice(start, i) };
    }
    for (const word of ['true', 'false', 'null'] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return { kind: word, text: word };
      }
    }
    NUMBER.lastIndex = i;
    if (!NUMBER.test(text)) throw new GrammarError(i);
    i = NUMBER.lastIndex;
    return { kind: 'number', text: text.slice(start, i) };
  };

  /** A value (or a container's end) was read: record a top-level member, move the frame on. */
  const completed = (value: ValueSource | undefined, frameDepth: number): void => {
    if (value === undefined || frameDepth !== 1 || pendingKey === undefined) return;
    if (!members.has(pendingKey)) members.set(pendingKey, value);
    pendingKey = undefined;
  };

  try {
    skip();
    if (i >= text.length) throw new GrammarError(i);
    const first = text[i];
    top = first === '{' ? 'object' : first === '[' ? 'array' : undefined;
    const scalar = readValue();
    if (scalar !== undefined) top = scalar.kind;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      skip();
      const c = text[i];
      if (frame.state === 'value' && (c === ',' || c === (frame.type === 'object' ? '}' : ']'))) {
        i += 1;
        if (c === ',') frame.state = 'comma';
        else {
          stack.pop();
          const parent = stack[stack.length - 1];
          const source: ValueSource = { kind: frame.type, text: text.slice(frame.start, i) };
          if (parent !== undefined) {
            completed(source, stack.length);
            parent.state = 'value';
          }
        }
        continue;
      }
      if (frame.state === 'open' && c === (frame.type === 'object' ? '}' : ']')) {
        frame.state = 'value';
        continue;
      }
      if (frame.state === 'value') throw new GrammarError(i);
      if (frame.type === 'object' && frame.state !== 'key') {
        if (c !== '"') throw new GrammarError(i);
        const at = i;
        const key = readString();
        if (key === '__proto__' || key === 'constructor')
          problems.push({ at, code: 'body_forbidden_key' });
        else if (frame.keys.has(key)) problems.push({ at, code: 'body_duplicate_key' });
        frame.keys.add(key);
        if (stack.length === 1) pendingKey = key;
        skip();
        if (text[i] !== ':') throw new GrammarError(i);
        i += 1;
        skip();
        frame.state = 'key';
      }
      if (i >= text.length) throw new GrammarError(i);
      const depth = stack.length;
      const value = readValue();
      if (value !== undefined) {
        completed(value, depth);
        frame.state = 'value';
      }
    }
    skip();
    if (i < text.length) throw new GrammarError(i);
    return { grammarError: undefined, problems: sorted(problems), top, members };
  } catch (error) {
    if (!(error instanceof GrammarError)) throw error;
    return { grammarError: error.at, problems: sorted(problems), top, members };
  }
}

function sorted<T extends { at: number }>(items: T[]): T[] {
  return items.sort((a, b) => a.at - b.at);
}

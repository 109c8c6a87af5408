import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { InvalidBodyError } from '../errors/client-errors';
import { INT64_MAX, INT64_MIN } from './body-limits';
import { readPlantJson } from './read-plant-json';

// The cases that only compute (thousands of bodies): seconds alone, a minute on a 2-core machine
// beside a type-check and a lint; a time-out is not what they test.
const CPU_BOUND_TIMEOUT = 120_000;

const ABOVE = INT64_MAX + 1n;
const BELOW = INT64_MIN - 1n;

/** The refusal code, or undefined when the text is accepted; anything but InvalidBodyError fails. */
function codeOf(text: string): string | undefined {
  try {
    readPlantJson(text);
    return undefined;
  } catch (error) {
    if (error instanceof InvalidBodyError) return error.code;
    throw error;
  }
}

function refusal(text: string): InvalidBodyError {
  try {
    readPlantJson(text);
  } catch (error) {
    if (error instanceof InvalidBodyError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

const idOf = (number: string): unknown => readPlantJson(`{"id":${number}}`).id;

/** A top-level object whose member holds `levels - 1` nested arrays: `levels` deep in all. */
const nestedArrays = (levels: number): string =>
  `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
const nestedObjects = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('readPlantJson numbers', () => {
  it('keeps 9007199254740993 exact as a bigint', () => {
    expect(idOf('9007199254740993')).toBe(9007199254740993n);
  });

  it('keeps both int64 ends exactly', () => {
    expect(idOf('9223372036854775807')).toBe(INT64_MAX);
    expect(idOf('-9223372036854775808')).toBe(INT64_MIN);
    expect(idOf('9223372036854775807e0')).toBe(INT64_MAX);
    expect(idOf('922337203685477580.7e1')).toBe(INT64_MAX);
    expect(idOf('-92233720368547758.08e2')).toBe(INT64_MIN);
  });

  it('maps integers one past either end to the out-of-range sentinels', () => {
    expect(idOf('9223372036854775808')).toBe(ABOVE);
    expect(idOf('-9223372036854775809')).toBe(BELOW);
    expect(idOf('922337203685477580.8e1')).toBe(ABOVE);
    expect(idOf('18446744073709551616')).toBe(ABOVE);
    expect(idOf('99999999999999999999')).toBe(ABOVE);
  });

  it.each([
    ['-0', 0n],
    ['0', 0n],
    ['-0.0', 0n],
    ['1.0', 1n],
    ['1.000', 1n],
    ['1e2', 100n],
    ['1E+2', 100n],
    ['1e+0002', 100n],
    ['100e-2', 1n],
    ['0.5e1', 5n],
    ['-12.5e1', -125n],
    ['12345678901234567890e-1', 1234567890123456789n],
    ['0.000000000000000000001e21', 1n],
  ])('reads %s as the integer %s', (text, expected) => {
    expect(idOf(text)).toBe(expected);
  });

  it.each(['1.5', '-1.5', '1e-1', '0.1', '9223372036854775807.5', '1e-99999999', '-5e-1', '10.01'])(
    'reads the non-integer %s as the 0.5 placeholder',
    (text) => {
      expect(idOf(text)).toBe(0.5);
    },
  );

  it('reads zero with a huge exponent as zero', () => {
    expect(idOf('0e999999999')).toBe(0n);
    expect(idOf('-0.000e-999999999')).toBe(0n);
    expect(idOf(`0e${'9'.repeat(10_000)}`)).toBe(0n);
  });

  it('saturates huge exponents of both signs without building huge values', () => {
    expect(idOf('1e19')).toBe(ABOVE);
    expect(idOf('-1e19')).toBe(BELOW);
    expect(idOf('1e999999999999999999')).toBe(ABOVE);
    expect(idOf('-1e999999999999999999')).toBe(BELOW);
    expect(idOf(`1e${'9'.repeat(10_000)}`)).toBe(ABOVE);
    expect(idOf(`-1e+${'9'.repeat(10_000)}`)).toBe(BELOW);
    expect(idOf(`1e-${'9'.repeat(10_000)}`)).toBe(0.5);
    expect(idOf(`1e${'0'.repeat(10_000)}5`)).toBe(100000n);
  });

  it('classifies 10,000-digit numbers from their digits alone', () => {
    const zeros = '0'.repeat(9_999);
    expect(idOf(`1${zeros}`)).toBe(ABOVE);
    expect(idOf(`-1${zeros}`)).toBe(BELOW);
    expect(idOf(`1${zeros}e-9999`)).toBe(1n);
    expect(idOf(`${'1'.repeat(10_000)}e-9999`)).toBe(0.5);
    expect(idOf(`0.${zeros}1`)).toBe(0.5);
    expect(idOf(`0.${'0'.repeat(9_998)}5e9999`)).toBe(5n);
    expect(idOf(`1.${zeros}`)).toBe(1n);
  });

  it('classifies numbers the same way for name and tag', () => {
    const candidate = readPlantJson('{"name":5,"tag":-2.5}');
    expect(candidate.name).toBe(5n);
    expect(candidate.tag).toBe(0.5);
  });
});

describe('readPlantJson refusals', () => {
  it.each(['', ' ', '\t\n\r ', '\uFEFF', '\uFEFF \n'])(
    'refuses the empty or blank body %j as body_empty',
    (text) => {
      expect(codeOf(text)).toBe('body_empty');
    },
  );

  it.each([
    '{',
    '}',
    '{"a"}',
    '{"a":}',
    '{"a" 1}',
    '{"a":1,}',
    '{"a":[1,]}',
    '{"a":[,1]}',
    '{"a":[1 2]}',
    '{,}',
    '{a:1}',
    "{'a':1}",
    '{"a":\'x\'}',
    '{"a":01}',
    '{"a":-01}',
    '{"a":00}',
    '{"a":+1}',
    '{"a":.5}',
    '{"a":1.}',
    '{"a":1.e1}',
    '{"a":1e}',
    '{"a":1e+}',
    '{"a":-}',
    '{"a":0x10}',
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":-Infinity}',
    '{"a":tru}',
    '{"a":True}',
    '{"a":nul}',
    '{"a":undefined}',
    '{"a":"\u0001"}',
    '{"a":"\t"}',
    '{"a":"\n"}',
    '{"a":"\u001f"}',
    String.raw`{"a":"\x41"}`,
    String.raw`{"a":"\'"}`,
    String.raw`{"a":"\U0041"}`,
    String.raw`{"a":"\u12"}`,
    String.raw`{"a":"\u12G4"}`,
    String.raw`{"a":"\uD83D\u00G0"}`,
    '{"a":"\\',
    '{"a":"abc}',
    '{"a":"abc',
    '{} {}',
    '{}x',
    '{"a":1}//c',
    '/*c*/{}',
    '{"a":1/*c*/}',
    '\uFEFF\uFEFF{}',
    ' \uFEFF{}',
    '{"a"\u00a0:1}',
    '\u2028{}',
    '\u000b{}',
    '\f{}',
    '[1,',
    '"abc',
  ])('refuses the malformed text %j as body_not_json', (text) => {
    expect(codeOf(text)).toBe('body_not_json');
  });

  it('says where the JSON breaks without echoing the text', () => {
    const error = refusal('{"SECRETZ": 1 2}');
    expect(error.status).toBe(400);
    expect(error.expose).toBe(true);
    expect(error.message).toBe(
      'The body is not valid JSON: it has an unexpected character at offset 14.',
    );
  });

  it.each(['[]', '1', '"x"', 'true', 'null', '  [ {"a":1} ]  ', '\uFEFF0', '-0.5e3'])(
    'refuses the valid non-object %j as body_not_object',
    (text) => {
      expect(codeOf(text)).toBe('body_not_object');
    },
  );

  it.each([
    '{"a":1,"a":2}',
    String.raw`{"a":1,"\u0061":2}`,
    '{"name":"x","name":"x"}',
    '{"x":{"b":1,"b":2}}',
    '{"x":[{"c":1,"c":1}]}',
    String.raw`{"\ud83d\ude00":1,"😀":2}`,
    `{${Array.from({ length: 20 }, (_, k) => `"k${k}":${k}`).join(',')},"k3":0}`,
  ])('refuses duplicate keys in %j as body_duplicate_key', (text) => {
    expect(codeOf(text)).toBe('body_duplicate_key');
  });

  it('tells keys apart after unescaping and across objects', () => {
    expect(codeOf(String.raw`{"a\"":1,"a\\":2,"a":3}`)).toBeUndefined();
    expect(codeOf('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
    const many = Array.from({ length: 500 }, (_, k) => `"k${k}":${k}`).join(',');
    expect(codeOf(`{${many}}`)).toBeUndefined();
  });

  it.each([
    '{"__proto__":1}',
    '{"constructor":1}',
    '{"__proto__":{},"__proto__":{}}',
    '{"x":{"__proto__":{}}}',
    '{"x":[{"constructor":1}]}',
    String.raw`{"__pro\u0074o__":1}`,
    String.raw`{"\u0063onstructor":1}`,
    String.raw`{"x":[{"\u005f_proto__":null}]}`,
  ])('refuses the reserved key in %j as body_forbidden_key', (text) => {
    expect(codeOf(text)).toBe('body_forbidden_key');
  });

  it('lets look-alikes of reserved keys and reserved words as values through', () => {
    for (const text of [
      '{"prototype":1}',
      '{"__proto":1}',
      '{"Constructor":1}',
      '{"x":"__proto__"}',
    ]) {
      expect(codeOf(text)).toBeUndefined();
    }
    expect(readPlantJson('{"name":"constructor"}').name).toBe('constructor');
  });

  it('accepts depth 64 and refuses depth 65', () => {
    expect(codeOf(nestedArrays(64))).toBeUndefined();
    expect(codeOf(nestedObjects(64))).toBeUndefined();
    expect(codeOf(nestedArrays(65))).toBe('body_too_deep');
    expect(codeOf(nestedObjects(65))).toBe('body_too_deep');
    expect(codeOf(`${'['.repeat(65)}${']'.repeat(65)}`)).toBe('body_too_deep');
  });

  // No wall-clock bound: on a shared machine it fails for the load, not for the reader. The reader
  // stops at the 65th bracket, and a recursive one would overflow the stack long before a million.
  it('refuses 100,000 and 1,000,000 open brackets as body_too_deep, without recursion', () => {
    expect(codeOf('['.repeat(100_000))).toBe('body_too_deep');
    expect(codeOf('{"a":'.repeat(100_000))).toBe('body_too_deep');
    expect(codeOf(`{"a":${'['.repeat(1_000_000)}`)).toBe('body_too_deep');
  });

  it.each([
    String.raw`{"name":"\uD800"}`,
    String.raw`{"name":"\udc00"}`,
    String.raw`{"name":"\uDC00\uD800"}`,
    String.raw`{"name":"\uD800\uD800"}`,
    String.raw`{"name":"\uD800x"}`,
    String.raw`{"name":"\uD800\u0041"}`,
    String.raw`{"name":"\uD800\n"}`,
    String.raw`{"name":"x\uDBFF"}`,
    String.raw`{"\uD800":1}`,
    String.raw`{"x":["\uDFFF"]}`,
  ])('refuses the unpaired surrogate escape in %j as body_lone_surrogate', (text) => {
    expect(codeOf(text)).toBe('body_lone_surrogate');
  });

  it.each(['{"name":"\uD800"}', '{"x":"a\uDC00"}', '\uD800{}', '{}\uDC00', '{"\uDBFF":1}'])(
    'refuses the raw unpaired surrogate in %j as body_lone_surrogate',
    (text) => {
      expect(codeOf(text)).toBe('body_lone_surrogate');
    },
  );

  it('never echoes submitted text in any message', () => {
    const texts = [
      '{"SECRETZ":1,"SECRETZ":2}',
      '{"SECRETZ" 1}',
      '["SECRETZ"]',
      String.raw`{"a":"SECRETZ\uD800"}`,
      '{"a":"SECRETZ\uD800"}',
      '{"__proto__":"SECRETZ"}',
      `{"SECRETZ":${'['.repeat(70)}`,
      'SECRETZ',
    ];
    for (const text of texts) {
      const error = refusal(text);
      expect(error).toBeInstanceOf(InvalidBodyError);
      expect(error.status).toBe(400);
      expect(error.message).not.toContain('SECRETZ');
      expect(error.message).toMatch(/^The body .+\.$/);
    }
  });
});

describe('readPlantJson candidate', () => {
  it('keeps valid surrogate pairs, escaped or raw', () => {
    expect(readPlantJson(String.raw`{"name":"\uD83D\uDE00"}`).name).toBe('😀');
    expect(readPlantJson(String.raw`{"name":"\ud83d\ude00"}`).name).toBe('😀');
    expect(readPlantJson(String.raw`{"name":"a\uD83D\uDE00b😀"}`).name).toBe('a😀b😀');
  });

  it('skips one leading BOM and keeps a BOM inside a string', () => {
    expect(readPlantJson('\uFEFF{"name":"x"}').name).toBe('x');
    expect(readPlantJson('{"name":"\uFEFF"}').name).toBe('\uFEFF');
  });

  it('accepts RFC 8259 whitespace everywhere between tokens', () => {
    const candidate = readPlantJson(' \t\n\r{ "name" :\n"x" ,\t"tag"\r: [ 1 , { } ] }\r\n\t ');
    expect(candidate.name).toBe('x');
    expect(candidate.tag).toEqual([]);
  });

  it('keeps strings exactly, decoding every escape', () => {
    const candidate = readPlantJson(
      String.raw`{"name":" Fe\u0301rn ","tag":"\"\\\/\b\f\n\r\t\u0000é"}`,
    );
    expect(candidate.name).toBe(' Fe\u0301rn ');
    expect(candidate.tag).toBe('"\\/\b\f\n\r\t\u0000é');
  });

  it('materialises only id, name and tag, even when named with escapes', () => {
    const candidate = readPlantJson(
      String.raw`{"x":{"deep":[1,{"k":"v"}]},"n\u0061me":"Fern","other":1e99999,"id":7}`,
    );
    expect(Object.keys(candidate)).toEqual(['name', 'id']);
    expect(candidate).toEqual({ name: 'Fern', id: 7n });
    expect('x' in candidate).toBe(false);
  });

  it('returns a null-prototype object holding only members present', () => {
    const candidate = readPlantJson('{}');
    expect(Object.getPrototypeOf(candidate)).toBeNull();
    expect(Object.keys(candidate)).toEqual([]);
    expect('toString' in candidate).toBe(false);
    expect(Object.getPrototypeOf(readPlantJson('{"name":"x"}'))).toBeNull();
  });

  it('gives placeholders for non-string name and tag values', () => {
    const objects = readPlantJson('{"name":{"a":1},"tag":[1,2,3]}');
    expect(Object.getPrototypeOf(objects.name)).toBeNull();
    expect(Object.keys(objects.name as object)).toEqual([]);
    expect(objects.tag).toEqual([]);
    expect(Array.isArray(objects.tag)).toBe(true);
    const literals = readPlantJson('{"name":true,"tag":null,"id":false}');
    expect(literals.name).toBe(true);
    expect(literals.tag).toBeNull();
    expect(literals.id).toBe(false);
    expect(readPlantJson('{"tag":false}').tag).toBe(false);
    expect(readPlantJson('{"id":"1"}').id).toBe('1');
  });

  it(
    'reads 16 KiB worst-case bodies in time linear in their size',
    () => {
      const worstCases = (size: number): string[] => {
        const keys = `{${Array.from({ length: size / 10 }, (_, k) => `"k${k}":0`).join(',')}}`;
        const deepUnit = `${'['.repeat(62)}${']'.repeat(62)},`;
        const deep = `{"a":[${deepUnit.repeat(Math.floor(size / deepUnit.length) - 1)}0]}`;
        const escapes = `{"name":"${String.raw`\u00e9\ud83d\ude00`.repeat(Math.floor(size / 18))}"}`;
        return [
          keys,
          deep,
          escapes,
          `{"id":${'1'.repeat(size)}}`,
          `{"id":0.${'0'.repeat(size)}1}`,
          `{"id":1e${'9'.repeat(size)}}`,
          `{"id":1e-${'0'.repeat(size)}}`,
          `{"x":[${'1e99999,'.repeat(size / 8)}0]}`,
        ];
      };
      // Relative, not a wall-clock bound: on a busy machine both sizes slow down alike. Eight times
      // the size costs about eight times as much when linear, sixty-four times when quadratic.
      const cost = (size: number): number => {
        const inputs = worstCases(size);
        let best = Infinity;
        for (let round = 0; round < 5; round += 1) {
          const started = performance.now();
          for (let repeat = 0; repeat < 10; repeat += 1) {
            for (const input of inputs) expect(codeOf(input)).toBeUndefined();
          }
          best = Math.min(best, performance.now() - started);
        }
        return best;
      };
      cost(2 * 1024);
      expect(cost(16 * 1024) / cost(2 * 1024)).toBeLessThan(24);
      expect(readPlantJson(`{"id":1e-${'0'.repeat(16 * 1024)}}`).id).toBe(1n);
    },
    CPU_BOUND_TIMEOUT,
  );
});

// ---- Property-based tests ----

const FORBIDDEN = new Set(['__proto__', 'constructor']);

const wellFormed = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed();

/** Depth of a parsed value and which key or string rules it breaks, the way the reader counts them. */
function inspect(value: unknown): { depth: number; forbidden: boolean; lone: boolean } {
  if (typeof value === 'string') return { depth: 0, forbidden: false, lone: !wellFormed(value) };
  if (value === null || typeof value !== 'object')
    return { depth: 0, forbidden: false, lone: false };
  let depth = 0;
  let forbidden = false;
  let lone = false;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value)) {
      forbidden ||= FORBIDDEN.has(key);
      lone ||= !wellFormed(key);
    }
    const inner = inspect(child);
    depth = Math.max(depth, inner.depth);
    forbidden ||= inner.forbidden;
    lone ||= inner.lone;
  }
  return { depth: depth + 1, forbidden, lone };
}

/** Wraps a JSON text in up to 70 arrays or objects (a bit each), to reach the depth limit. */
const wrapped = fc
  .tuple(fc.json({ maxDepth: 4, stringUnit: 'binary' }), fc.nat({ max: 70 }), fc.integer())
  .map(([json, levels, kinds]) => {
    let text = json;
    for (let k = 0; k < levels; k++) text = (kinds >> (k % 31)) & 1 ? `[${text}]` : `{"w":${text}}`;
    return text;
  });

/** A JSON tree whose objects may repeat keys, serialised with random escaping of key characters. */
type Tree =
  | { readonly kind: 'leaf'; readonly json: string }
  | { readonly kind: 'array'; readonly items: readonly Tree[] }
  | { readonly kind: 'object'; readonly entries: readonly (readonly [string, Tree])[] };

const keyArb = fc.constantFrom(
  'a',
  'b',
  'id',
  'name',
  'tag',
  '__proto__',
  'constructor',
  'é',
  '😀',
  '',
);
const leafArb = fc
  .oneof(
    fc.string({ unit: 'binary' }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  )
  .map((value): Tree => ({ kind: 'leaf', json: JSON.stringify(value) }));
const { tree: treeArb } = fc.letrec<{ tree: Tree; object: Tree; array: Tree }>((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, leafArb, tie('object'), tie('array')),
  object: fc
    .array(fc.tuple(keyArb, tie('tree')), { maxLength: 5 })
    .map((entries): Tree => ({ kind: 'object', entries })),
  array: fc.array(tie('tree'), { maxLength: 4 }).map((items): Tree => ({ kind: 'array', items })),
}));

function serialise(tree: Tree, escapeMask: number): string {
  if (tree.kind === 'leaf') return tree.json;
  if (tree.kind === 'array')
    return `[${tree.items.map((t) => serialise(t, escapeMask)).join(',')}]`;
  const members = tree.entries.map(([key, value]) => {
    let text = '';
    // Per code point, so a surrogate pair is escaped as a whole or not at all.
    for (const [k, char] of [...key].entries()) {
      if (((escapeMask >> (k % 31)) & 1) === 0) {
        text += char;
        continue;
      }
      for (let u = 0; u < char.length; u++) {
        text += `\\u${char.charCodeAt(u).toString(16).padStart(4, '0')}`;
      }
    }
    return `"${text}":${serialise(value, escapeMask >>> 1)}`;
  });
  return `{${members.join(',')}}`;
}

/** The first problem in text order, which is the one the reader reports. */
function firstProblem(tree: Tree, depth: number): string | undefined {
  if (tree.kind === 'leaf') return undefined;
  if (depth > 64) return 'body_too_deep';
  if (tree.kind === 'array') {
    for (const item of tree.items) {
      const problem = firstProblem(item, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [key, value] of tree.entries) {
    if (FORBIDDEN.has(key)) return 'body_forbidden_key';
    if (seen.has(key)) return 'body_duplicate_key';
    seen.add(key);
    const problem = firstProblem(value, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

const interesting = [
  '{',
  '}',
  '[',
  ']',
  '"',
  '\\',
  ',',
  ':',
  '0',
  '-',
  'e',
  '.',
  'u',
  ' ',
  '\uD800',
  '\uFEFF',
  '\u0000',
];
const mutatedJson = fc
  .tuple(
    fc.json({ stringUnit: 'binary' }),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 2 }), fc.constantFrom(...interesting)), {
      minLength: 1,
      maxLength: 4,
    }),
  )
  .map(([json, edits]) =>
    edits.reduce((text, [position, op, char]) => {
      const at = position % (text.length + 1);
      if (op === 0) return text.slice(0, at) + text.slice(at + 1);
      if (op === 1) return text.slice(0, at) + char + text.slice(at);
      return text.slice(0, at) + char + text.slice(at + 1);
    }, json),
  );

describe('readPlantJson properties', () => {
  it(
    'accepts fc.json objects exactly when JSON.parse does and no key or depth rule is broken',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.json({ stringUnit: 'binary' }), wrapped), (text) => {
          const parsed: unknown = JSON.parse(text);
          fc.pre(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed));
          const { depth, forbidden, lone } = inspect(parsed);
          // When several rules are broken, the first in text order is reported.
          const broken: (string | undefined)[] = [];
          if (forbidden) broken.push('body_forbidden_key');
          if (depth > 64) broken.push('body_too_deep');
          if (lone) broken.push('body_lone_surrogate');
          if (broken.length === 0) broken.push(undefined);
          const code = codeOf(text);
          expect(broken).toContain(code);
          if (code !== undefined) return;
          const record = parsed as Record<string, unknown>;
          const candidate = readPlantJson(text);
          for (const member of ['name', 'tag'] as const) {
            if (typeof record[member] === 'string') expect(candidate[member]).toBe(record[member]);
          }
          const id = candidate.id;
          if (typeof id === 'bigint' && id >= INT64_MIN && id <= INT64_MAX) {
            expect(Number(id)).toBe(record['id']);
          }
        }),
        { numRuns: 3_000 },
      );
    },
    CPU_BOUND_TIMEOUT,
  );

  it('finds duplicate, reserved and too-deep keys in generated trees in text order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(keyArb, treeArb), { maxLength: 5 }),
        fc.nat({ max: 70 }),
        fc.integer(),
        (entries, levels, escapeMask) => {
          let inner: Tree = { kind: 'object', entries };
          for (let k = 0; k < levels; k++) inner = { kind: 'array', items: [inner] };
          const top: Tree = { kind: 'object', entries: [['w', inner]] };
          const text = serialise(top, escapeMask);
          expect(codeOf(text)).toBe(firstProblem(top, 1));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it('only ever returns or throws InvalidBodyError for arbitrary text', () => {
    const units = fc
      .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 })
      .map((codes) => String.fromCharCode(...codes));
    const anyText = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      units,
      mutatedJson,
      mutatedJson.map((text) => `{"name":${text}}`),
    );
    fc.assert(
      fc.property(anyText, (text) => {
        const code = codeOf(text);
        // Whatever the reader accepts, JSON.parse accepts too (as an object).
        if (code === undefined) {
          const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
          expect(typeof parsed).toBe('object');
        }
      }),
      { numRuns: 5_000 },
    );
  });
});

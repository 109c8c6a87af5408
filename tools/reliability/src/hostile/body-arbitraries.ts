import fc from 'fast-check';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const LIMIT = 16_384;

const encoder = new TextEncoder();

/** JSON whitespace, mostly none. */
const ws = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  fc.constantFrom(' ', '\n', '\t', '\r\n', '  '),
);

/**
 * The source text of an id: small ids (a few of them often, so replays and conflicts happen), any
 * int64 and past it, the edges, exponents and fractions, and spellings JSON does not allow.
 */
export const idText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 5000 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 20 }).map(String) },
  { weight: 3, arbitrary: fc.bigInt({ min: INT64_MIN - 10n, max: INT64_MAX + 10n }).map(String) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.constantFrom(INT64_MAX, INT64_MIN, 2n ** 53n, -(2n ** 53n), 0n),
        fc.integer({ min: -3, max: 3 }),
      )
      .map(([edge, delta]) => String(edge + BigInt(delta))),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        fc.stringMatching(/^[0-9]{0,6}$/),
        fc.integer({ min: -25, max: 25 }),
        fc.boolean(),
        fc.constantFrom('e', 'E', 'e+'),
      )
      .map(([whole, fraction, exponent, negative, e]) => {
        const sign = negative ? '-' : '';
        const frac = fraction === '' ? '' : `.${fraction}`;
        const exp = exponent === 0 ? '' : `${exponent < 0 ? 'e' : e}${exponent}`;
        return `${sign}${String(whole)}${frac}${exp}`;
      }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '01',
      '-',
      '1.',
      '.5',
      '+1',
      '1e',
      'NaN',
      '0x1',
      '-0',
      '1.0',
      '1E2',
      '1e999999',
      '"7"',
      'true',
      'null',
      '[]',
      '{}',
      `1${'0'.repeat(400)}`,
    ),
  },
);

/** Code units a string's source may hold: plain, escaped, control, surrogate halves. */
const stringPiece: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 16,
    arbitrary: fc
      .string({ unit: 'grapheme', maxLength: 6 })
      .map((text) => JSON.stringify(text).slice(1, -1)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\\n',
      '\\"',
      '\\\\',
      '\\/',
      '\\t',
      '\\u00e9',
      '\\ud83c\\udf31',
      '\\uD83C\\uDF31',
      '🌱',
      'é',
      '\ufeff',
      '\u2028',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\\u0000',
      '\\ud800',
      '\\udc00',
      '\\ud800\\u0041',
      '\u0000',
      '\u001f',
      '\t',
      '\\x41',
      '\\u12',
      '\\',
    ),
  },
);

/** The source text of a string value. */
const stringText = fc.array(stringPiece, { maxLength: 6 }).map((pieces) => `"${pieces.join('')}"`);

/** The source text of a name or tag: mostly a string, sometimes another JSON value. */
const fieldText: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: stringText },
  { weight: 1, arbitrary: fc.constantFrom('1', 'null', 'true', '[]', '{}', '["a"]', '""') },
);

/** Keys of extra members: ordinary, look-alikes of the fields, forbidden, escaped. */
const extraKey: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .string({ unit: 'grapheme-ascii', maxLength: 5 })
      .map((key) => JSON.stringify(key)),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '"id"',
      '"name"',
      '"tag"',
      '"ID"',
      '"\\u0069d"',
      '"n\\u0061me"',
      '"__proto__"',
      '"constructor"',
      '"\\u005f_proto__"',
      '"prototype"',
      '""',
      '"\\ud800"',
    ),
  },
);

/** A JSON value's text, nested a little. */
const jsonText = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null');

/** A plant-shaped object: id, name, optional tag, extra members, in any order, any whitespace. */
export const plantText: fc.Arbitrary<string> = fc
  .record({
    id: fc.option(idText, { nil: undefined, freq: 12 }),
    name: fc.option(fieldText, { nil: undefined, freq: 12 }),
    tag: fc.option(fieldText, { nil: undefined, freq: 2 }),
    extras: fc.array(fc.tuple(extraKey, jsonText), { maxLength: 2 }),
    order: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
    spaces: fc.array(ws, { minLength: 4, maxLength: 4 }),
  })
  .map(({ id, name, tag, extras, order, spaces }) => {
    const [a = '', b = '', c = '', d = ''] = spaces;
    const members: string[] = [];
    if (id !== undefined) members.push(`"id"${a}:${b}${id}`);
    if (name !== undefined) members.push(`"name":${c}${name}`);
    if (tag !== undefined) members.push(`"tag":${tag}`);
    for (const [key, value] of extras) members.push(`${key}:${value}`);
    const ranked = members.map((member, k) => [order[k % order.length] ?? 0, k, member] as const);
    ranked.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
    return `${a}{${d}${ranked.map(([, , member]) => member).join(`,${c}`)}${b}}${d}`;
  });

/** Characters and snippets that break JSON in interesting ways when inserted. */
const hostileSnippet = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  '"',
  ':',
  ',',
  '\\',
  '0',
  '1',
  '-',
  '.',
  'e',
  '+',
  ' ',
  '\u0000',
  '\ufeff',
  '\ud800',
  'é',
  '🌱',
  '\\u0000',
  '\\ud800',
  '"__proto__":1,',
  '"id":1,',
  '"name":"x",',
  'null',
  'tru',
  '/*',
  '\n',
  '\u000b',
);

type Edit = { readonly at: number; readonly length: number; readonly insert: string };

/** A valid-looking plant with one to three edits: deletions, insertions, duplicated slices. */
export const mutatedText: fc.Arbitrary<string> = fc
  .tuple(
    plantText,
    fc.array(
      fc.record({
        at: fc.nat(),
        length: fc.nat(4),
        insert: fc.oneof(hostileSnippet, fc.constant('')),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([text, edits]: [string, Edit[]]) =>
    edits.reduce((current, { at, length, insert }) => {
      const position = current.length === 0 ? 0 : at % (current.length + 1);
      return (
        current.slice(0, position) +
        insert +
        current.slice(position + (insert === '' ? Math.max(1, length) : length))
      );
    }, text),
  );

/** Bytes of a plant with raw bytes spliced in: invalid UTF-8, BOMs, truncated characters. */
const byteMutated: fc.Arbitrary<Uint8Array> = fc
  .tuple(
    plantText,
    fc.nat(),
    fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 4 }),
      fc.constantFrom(
        Uint8Array.of(0xef, 0xbb, 0xbf),
        Uint8Array.of(0xc0, 0xaf),
        Uint8Array.of(0xed, 0xa0, 0x80),
        Uint8Array.of(0xf0, 0x9f),
      ),
    ),
  )
  .map(([text, at, inserted]) => {
    const bytes = encoder.encode(text);
    const position = at % (bytes.length + 1);
    return Uint8Array.from([
      ...bytes.subarray(0, position),
      ...inserted,
      ...bytes.subarray(position),
    ]);
  });

/** Nesting around the 64-level limit, in an ignored member or at the top. */
const deepText: fc.Arbitrary<string> = fc
  .tuple(fc.integer({ min: 60, max: 70 }), fc.boolean(), fc.integer({ min: 1, max: 60 }))
  .map(([depth, inside, id]) => {
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    return inside ? `{"id":${id},"name":"deep","x":${nested}}` : nested;
  });

/** A valid plant padded to a few bytes either side of the limit. */
const nearLimit: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: -3, max: 3 }), fc.boolean())
  .map(([id, delta, inName]) => {
    const short = `{"id":${id},"name":"p"}`;
    const pad = LIMIT + delta - short.length;
    return encoder.encode(
      inName ? `{"id":${id},"name":"${'p'.repeat(pad + 1)}"}` : `${short}${' '.repeat(pad)}`,
    );
  });

/** Every body the fuzz sends, as bytes. */
export const bodyBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 8, arbitrary: plantText.map((text) => encoder.encode(text)) },
  { weight: 4, arbitrary: mutatedText.map((text) => encoder.encode(text)) },
  { weight: 1, arbitrary: byteMutated },
  { weight: 1, arbitrary: jsonText.map((text) => encoder.encode(text)) },
  { weight: 1, arbitrary: deepText.map((text) => encoder.encode(text)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 48 }) },
  { weight: 1, arbitrary: nearLimit },
);

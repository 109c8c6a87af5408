import {
  type CaseGroup,
  created,
  type Expectation,
  type HostileCase,
  httpCase,
  refused,
} from './case';

/** One body sample: the sentence, the body, the answer. */
type BodySample = readonly [what: string, body: string | Uint8Array, expect: Expectation];

/** Text (as UTF-8) and raw byte values, concatenated into one body. */
const bytes = (...parts: readonly (string | readonly number[])[]): Uint8Array =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))),
  );
/** A body whose name holds these raw bytes between `"a` and `"`. */
const inName = (id: number, raw: readonly number[]) => bytes(`{"id":${id},"name":"a`, raw, '"}');
const withId = (idText: string, name = 'Num') => `{"id":${idText},"name":"${name}"}`;
/** An id stored exactly, under a name of its own. */
const exactId = (what: string, text: string, id: bigint): BodySample => [
  `an id of ${what}`,
  withId(text, `Num ${id}`),
  created(id, `Num ${id}`),
];
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** `n` levels alternating arrays and objects, the outermost an array, around a `0`. */
const alternating = (n: number): string =>
  n === 0 ? '0' : n % 2 === 1 ? `[${alternating(n - 1)}]` : `{"a":${alternating(n - 1)}}`;
/** A plant whose ignored member `x` holds `value`: the plant object is level 1. */
const withX = (id: number, value: string) => `{"id":${id},"name":"Deep","x":${value}}`;
const manyKeys = (count: number) =>
  Array.from({ length: count }, (_, k) => `"k${k}":${k}`).join(',');

const invalidUtf8 = refused(400, 'body_invalid_utf8');
const notJson = refused(400, 'body_not_json');
const duplicate = refused(400, 'body_duplicate_key');
const forbidden = refused(400, 'body_forbidden_key');
const tooDeep = refused(400, 'body_too_deep');
const mismatch = refused(400, 'schema_mismatch');

/**
 * A sample of each reader property over HTTP, end to end through both adapters. The exhaustive
 * tables are the core's unit tests (read-plant-json.test.ts, validate-plant.test.ts,
 * schemas.test.ts) and the oracle fuzz; kept here are what those do not reach: bytes that are not
 * UTF-8 (the core's reader takes text), text kept exactly through the store, and one or two cases
 * of each rule. docs/hostile-input.md lists where every other case is covered.
 */
const SAMPLES: readonly (readonly [CaseGroup, readonly BodySample[]])[] = [
  [
    'UTF-8',
    [
      [
        'an overlong quote (C0 A2) that would close the string in the name',
        inName(4900, [0xc0, 0xa2]),
        invalidUtf8,
      ],
      [
        'a three-byte overlong "/" (E0 80 AF) in the name',
        inName(4900, [0xe0, 0x80, 0xaf]),
        invalidUtf8,
      ],
      [
        'a four-byte overlong "/" (F0 80 80 AF) in the name',
        inName(4900, [0xf0, 0x80, 0x80, 0xaf]),
        invalidUtf8,
      ],
      [
        'a code point above U+10FFFF (F4 90 80 80) in the name',
        inName(4900, [0xf4, 0x90, 0x80, 0x80]),
        invalidUtf8,
      ],
      [
        'a truncated sequence as the last byte of the body',
        bytes('{"id":4901,"name":"a"}', [0xc3]),
        invalidUtf8,
      ],
      [
        'an invalid byte in a member that is ignored',
        bytes('{"id":4902,"name":"a","x":"', [0xff], '"}'),
        invalidUtf8,
      ],
      [
        'a UTF-16LE body with its BOM',
        Buffer.from('\ufeff{"id":4904,"name":"a"}', 'utf16le'),
        invalidUtf8,
      ],
      [
        'one leading UTF-8 BOM',
        bytes([0xef, 0xbb, 0xbf], '{"id":4001,"name":"Bom"}'),
        created(4001n, 'Bom'),
      ],
      [
        'the noncharacters U+FFFE and U+FFFF, kept',
        '{"id":4004,"name":"\ufffe\uffff"}',
        created(4004n, '\ufffe\uffff'),
      ],
      [
        'a DEL and a C1 control character, kept',
        '{"id":4007,"name":"a\u007f\u0085"}',
        created(4007n, 'a\u007f\u0085'),
      ],
    ],
  ],
  [
    'JSON syntax',
    [
      ['an empty body', '', refused(400, 'body_empty')],
      ['JSON with a trailing comma in the object', '{"id":5902,"name":"a",}', notJson],
      ['JSON with a block comment inside the object', '{"id":5916,/* x */"name":"a"}', notJson],
      ['JSON with two objects', '{"id":5917,"name":"a"}{"id":5918,"name":"b"}', notJson],
      ['JSON with a raw tab in a string', '{"id":5939,"name":"a\tb"}', notJson],
      ['JSON with a no-break space between tokens', '{"id":5945,\u00a0"name":"a"}', notJson],
      ['an array holding a plant', '[{"id":5950,"name":"a"}]', refused(400, 'body_not_object')],
      [
        'every kind of JSON whitespace between tokens',
        ' \t\r\n{ \t\r\n"id" \t\r\n: \t\r\n5001 \t\r\n, \t\r\n"name" \t\r\n: \t\r\n"Ws" \t\r\n} \t\r\n',
        created(5001n, 'Ws'),
      ],
      [
        'keys spelt with escapes',
        '{"\\u0069\\u0064":5003,"n\\u0061me":"Esc"}',
        created(5003n, 'Esc'),
      ],
    ],
  ],
  [
    'numbers',
    [
      exactId('the int64 maximum', '9223372036854775807', 9223372036854775807n),
      exactId('the int64 minimum', '-9223372036854775808', -9223372036854775808n),
      exactId('a negative exponent that leaves an integer', '60040e-1', 6004n),
      ['an id of a leading zero', withId('01'), notJson],
      [
        'an id of the int64 maximum plus one',
        withId('9223372036854775808'),
        refused(400, 'id_out_of_range'),
      ],
      [
        'an id of a 10,000-digit exponent',
        withId(`1e${'9'.repeat(10_000)}`),
        refused(400, 'id_out_of_range'),
      ],
      ['an id of 1.5', withId('1.5'), refused(400, 'id_not_integer')],
      [
        'an id of 2^53 + 0.5 (a double rounds it to an integer)',
        withId('9007199254740992.5'),
        refused(400, 'id_not_integer'),
      ],
    ],
  ],
  [
    'duplicate keys',
    [
      ['the name twice', '{"id":7903,"name":"a","name":"b"}', duplicate],
      ['the id twice, once escaped', '{"id":7905,"\\u0069d":7906,"name":"a"}', duplicate],
      [
        'a repeated key in an object inside an array',
        '{"id":7913,"name":"a","x":[{"k":1,"k":1}]}',
        duplicate,
      ],
      [
        'a repeat of the first of 300 keys',
        `{"k0":0,"id":7916,"name":"a",${manyKeys(300)}}`,
        duplicate,
      ],
      [
        '"id" and "ID" (not duplicates)',
        '{"id":7001,"ID":2,"name":"Case"}',
        created(7001n, 'Case'),
      ],
      [
        '"é" precomposed and decomposed (not duplicates)',
        '{"id":7002,"name":"Case","\u00e9":1,"e\u0301":2}',
        created(7002n, 'Case'),
      ],
    ],
  ],
  [
    'depth',
    [
      [
        '64 levels: the object and 63 nested arrays',
        withX(8001, arrays(63)),
        created(8001n, 'Deep'),
      ],
      ['65 levels: the object and 64 nested arrays', withX(8900, arrays(64)), tooDeep],
      ['65 levels alternating arrays and objects', withX(8902, alternating(64)), tooDeep],
      [
        '100,000 levels (over the size limit before any parsing)',
        arrays(100_000),
        refused(413, 'body_too_large'),
      ],
    ],
  ],
  [
    'prototype keys',
    [
      ['a key __proto__ last', '{"id":9901,"name":"a","__proto__":{"admin":true}}', forbidden],
      [
        'a key constructor.prototype',
        '{"id":9908,"name":"a","constructor":{"prototype":{"polluted":true}}}',
        forbidden,
      ],
      [
        'a key __proto__ fully escaped',
        '{"id":9905,"name":"a","\\u005f\\u005fproto\\u005f\\u005f":{}}',
        forbidden,
      ],
      ['a key __proto__ before a syntax error (first problem wins)', '{"__proto__":1,', forbidden],
      [
        'toString and valueOf (not a forbidden key)',
        '{"id":9007,"name":"Near","toString":1,"valueOf":2}',
        created(9007n, 'Near'),
      ],
      [
        '"__proto__" as the name (not a forbidden key)',
        '{"id":9010,"name":"__proto__"}',
        created(9010n, '__proto__'),
      ],
    ],
  ],
  [
    'schema',
    [
      ['no name', '{"id":11900}', refused(400, 'field_missing')],
      ['a name that is null', '{"id":11905,"name":null}', mismatch],
      ['a tag that is an array', '{"id":11911,"name":"a","tag":[]}', mismatch],
      [
        'every field wrong (the id is reported first)',
        '{"id":1.5,"name":5,"tag":null}',
        refused(400, 'id_not_integer'),
      ],
      ['an empty name', '{"id":11001,"name":""}', created(11001n, '')],
      [
        'a name with surrounding spaces, not trimmed',
        '{"id":11003,"name":"  a  "}',
        created(11003n, '  a  '),
      ],
      [
        'a name of 10,000 characters',
        `{"id":11004,"name":"${'x'.repeat(10_000)}"}`,
        created(11004n, 'x'.repeat(10_000)),
      ],
    ],
  ],
];

/** The body samples of every reader property. */
export const bodyCases: readonly HostileCase[] = SAMPLES.flatMap(([group, rows]) =>
  rows.map(([what, body, expect]) => httpCase(group, what, body, expect)),
);

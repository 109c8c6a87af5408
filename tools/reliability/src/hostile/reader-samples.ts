import { gzipSync } from 'node:zlib';
import { plantBody } from '@plantstore/http-suite/client';
import {
  type CaseHeaders,
  created,
  type Expectation,
  type HostileCase,
  refused,
  type Sample,
  sampleCases,
} from './case';

// A sample of each reader property over HTTP, end to end through both adapters. The exhaustive
// tables are the core's unit tests (read-plant-json.test.ts, validate-plant.test.ts,
// schemas.test.ts) and the oracle fuzz; kept here are what those do not reach (bytes that are not
// UTF-8, as the core's reader takes text; text kept exactly through the store) and one or two cases
// of each rule. docs/reference/reliability.md says where every other case is covered.

/** One header sample: the sentence, the header values, and the answer (`undefined`: 200, stored). */
type HeaderSample = readonly [what: string, headers: CaseHeaders, refusal?: Expectation];

const unsupported = refused(415, 'media_type_unsupported');
const compressed = refused(415, 'content_encoding_unsupported');
const invalidUtf8 = refused(400, 'body_invalid_utf8');
const type = (value: string | readonly string[] | null): CaseHeaders => ({ 'content-type': value });
const coding = (value: string | readonly string[]): CaseHeaders => ({ 'content-encoding': value });

/**
 * `Content-Type` over HTTP: the spellings whose parsing no unit test of the core covers (spaces and
 * tabs around the semicolon, a quoted-pair, trailing whitespace, a parameter before the charset),
 * a few refusals, and the header missing or repeated. The core's content-type.test.ts holds the rest.
 */
const mediaTypes: readonly HeaderSample[] = [
  ['Content-Type with the plain media type', type('application/json')],
  ['Content-Type with a space before the semicolon', type('application/json ; charset=utf-8')],
  ['Content-Type with a tab after the semicolon', type('application/json;\tcharset=utf-8')],
  [
    'Content-Type with a quoted charset with a quoted-pair',
    type('application/json; charset="utf\\-8"'),
  ],
  ['Content-Type with trailing whitespace', type('application/json; charset=utf-8 ')],
  [
    'Content-Type with a quoted parameter holding a semicolon, then a charset',
    type('application/json; foo="a;b"; charset=utf-8'),
  ],
  ['Content-Type with text/plain', type('text/plain'), unsupported],
  [
    'Content-Type with charset=utf8 without the dash',
    type('application/json; charset=utf8'),
    unsupported,
  ],
  [
    'Content-Type with the charset twice in two cases',
    type('application/json; CHARSET=utf-8; charset=utf-8'),
    unsupported,
  ],
  ['no Content-Type', type(null), unsupported],
  [
    'two Content-Type headers, both application/json',
    type(['application/json', 'application/json']),
    unsupported,
  ],
  [
    'two Content-Type headers, json then text',
    type(['application/json', 'text/plain']),
    unsupported,
  ],
];

/**
 * `Content-Encoding` over HTTP: identity in the spellings the core's unit tests leave out (capitals,
 * spaces, empty), compressions, and the header repeated. Real compressed bodies are below.
 */
const encodings: readonly HeaderSample[] = [
  ['Content-Encoding: identity in capitals', coding('IDENTITY')],
  ['Content-Encoding: identity with surrounding spaces', coding(' identity ')],
  ['Content-Encoding: an empty value', coding('')],
  ['Content-Encoding: gzip', coding('gzip'), compressed],
  ['Content-Encoding: gzip, identity', coding('gzip, identity'), compressed],
  ['two Content-Encoding headers, identity then gzip', coding(['identity', 'gzip']), compressed],
];

/** Each sample with a plant of its own (the accepted ones store it), from `firstId` on. */
const withPlants = (rows: readonly HeaderSample[], firstId: number): Sample[] =>
  rows.map(([what, headers, refusal], index) => {
    const id = firstId + index;
    const expect = refusal ?? created(BigInt(id), 'Fern');
    return [what, plantBody({ id, name: 'Fern' }), expect, headers];
  });

const fern = plantBody({ id: 3900, name: 'Fern' });

/** The headers that describe a body: media type, charset, content coding. */
const headerCases: readonly HostileCase[] = [
  ...sampleCases('media types', withPlants(mediaTypes, 2001)),
  ...sampleCases('encodings', [
    ...withPlants(encodings, 3001),
    ['a gzip body declared gzip', gzipSync(fern), compressed, coding('gzip')],
    ['a gzip body declared identity', gzipSync(fern), invalidUtf8, coding('identity')],
  ]),
];

/** Text (as UTF-8) and raw byte values, concatenated into one body. */
const bytes = (...parts: readonly (string | readonly number[])[]): Uint8Array =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : Buffer.from(part))),
  );

const notJson = refused(400, 'body_not_json');
const duplicate = refused(400, 'body_duplicate_key');
const forbidden = refused(400, 'body_forbidden_key');
const tooDeep = refused(400, 'body_too_deep');
const mismatch = refused(400, 'schema_mismatch');

/** A body refused as not UTF-8 for these raw bytes in its name. */
const bad = (what: string, raw: readonly number[]): Sample => [
  `${what} in the name`,
  bytes('{"id":4900,"name":"a', raw, '"}'),
  invalidUtf8,
];
/** A plant accepted and stored exactly. */
const kept = (what: string, id: number, name: string): Sample => [
  what,
  plantBody({ id, name }),
  created(BigInt(id), name),
];
/** A body accepted, storing a plant of this id and name. */
const stores = (what: string, body: string, id: number, name: string): Sample => [
  what,
  body,
  created(BigInt(id), name),
];
/** An id spelt `text`, stored exactly as `value` or refused with `refusal`. */
const id = (what: string, text: string, answer: bigint | Expectation): Sample => {
  const name = typeof answer === 'bigint' ? `Num ${answer}` : 'Num';
  const expect = typeof answer === 'bigint' ? created(answer, name) : answer;
  return [`an id of ${what}`, `{"id":${text},"name":"${name}"}`, expect];
};
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** `n` levels alternating arrays and objects, the outermost an array, around a `0`. */
const alternating = (n: number): string =>
  n === 0 ? '0' : n % 2 === 1 ? `[${alternating(n - 1)}]` : `{"a":${alternating(n - 1)}}`;
/** A plant whose ignored member `x` holds `value`: the plant object is level 1. */
const deep = (id: number, value: string) => `{"id":${id},"name":"Deep","x":${value}}`;
const keys = (count: number) => Array.from({ length: count }, (_, k) => `"k${k}":${k}`).join(',');

const utf8: readonly Sample[] = [
  bad('an overlong quote (C0 A2) that would close the string', [0xc0, 0xa2]),
  bad('a three-byte overlong "/" (E0 80 AF)', [0xe0, 0x80, 0xaf]),
  bad('a four-byte overlong "/" (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]),
  bad('a code point above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]),
  ['a truncated sequence as the last byte of the body', bytes('{"name":"a"}', [0xc3]), invalidUtf8],
  ['an invalid byte in a member that is ignored', bytes('{"x":"', [0xff], '"}'), invalidUtf8],
  [
    'a UTF-16LE body with its BOM',
    Buffer.from('\ufeff{"id":1,"name":"a"}', 'utf16le'),
    invalidUtf8,
  ],
  [
    'one leading UTF-8 BOM',
    bytes([0xef, 0xbb, 0xbf], plantBody({ id: 4001, name: 'Bom' })),
    created(4001n, 'Bom'),
  ],
  kept('the noncharacters U+FFFE and U+FFFF, kept', 4004, '\ufffe\uffff'),
  kept('a DEL and a C1 control character, kept', 4007, 'a\u007f\u0085'),
];

const jsonSyntax: readonly Sample[] = [
  ['an empty body', '', refused(400, 'body_empty')],
  ['JSON with a trailing comma in the object', '{"id":5902,"name":"a",}', notJson],
  ['JSON with a block comment inside the object', '{"id":5916,/* x */"name":"a"}', notJson],
  ['JSON with two objects', '{"id":5917,"name":"a"}{"id":5918,"name":"b"}', notJson],
  ['JSON with a raw tab in a string', '{"id":5939,"name":"a\tb"}', notJson],
  ['JSON with a no-break space between tokens', '{"id":5945,\u00a0"name":"a"}', notJson],
  ['an array holding a plant', '[{"id":5950,"name":"a"}]', refused(400, 'body_not_object')],
  stores(
    'every kind of JSON whitespace between tokens',
    ' \t\r\n{ \t"id" \r\n: 5001 \t, \n"name"\r: \t"Ws" } \t\r\n',
    5001,
    'Ws',
  ),
  stores('keys spelt with escapes', '{"\\u0069\\u0064":5003,"n\\u0061me":"Esc"}', 5003, 'Esc'),
];

const numbers: readonly Sample[] = [
  id('the int64 maximum', '9223372036854775807', 9223372036854775807n),
  id('the int64 minimum', '-9223372036854775808', -9223372036854775808n),
  id('a negative exponent that leaves an integer', '60040e-1', 6004n),
  id('a leading zero', '01', notJson),
  id('the int64 maximum plus one', '9223372036854775808', refused(400, 'id_out_of_range')),
  id('a 10,000-digit exponent', `1e${'9'.repeat(10_000)}`, refused(400, 'id_out_of_range')),
  id('1.5', '1.5', refused(400, 'id_not_integer')),
  id(
    '2^53 + 0.5 (a double rounds it to an integer)',
    '9007199254740992.5',
    refused(400, 'id_not_integer'),
  ),
];

const duplicateKeys: readonly Sample[] = [
  ['the name twice', '{"id":7903,"name":"a","name":"b"}', duplicate],
  ['the id twice, once escaped', '{"id":7905,"\\u0069d":7906,"name":"a"}', duplicate],
  ['a repeated key in an object inside an array', '{"name":"a","x":[{"k":1,"k":1}]}', duplicate],
  ['a repeat of the first of 300 keys', `{"k0":0,"id":7916,"name":"a",${keys(300)}}`, duplicate],
  stores('"id" and "ID" (not duplicates)', '{"id":7001,"ID":2,"name":"Case"}', 7001, 'Case'),
  stores(
    '"é" precomposed and decomposed (not duplicates)',
    '{"id":7002,"name":"Case","\u00e9":1,"e\u0301":2}',
    7002,
    'Case',
  ),
];

const depth: readonly Sample[] = [
  stores('64 levels: the object and 63 nested arrays', deep(8001, arrays(63)), 8001, 'Deep'),
  ['65 levels: the object and 64 nested arrays', deep(8900, arrays(64)), tooDeep],
  ['65 levels alternating arrays and objects', deep(8902, alternating(64)), tooDeep],
  [
    '100,000 levels (over the size limit before any parsing)',
    arrays(100_000),
    refused(413, 'body_too_large'),
  ],
];

const prototypeKeys: readonly Sample[] = [
  ['a key __proto__ last', '{"id":9901,"name":"a","__proto__":{"admin":true}}', forbidden],
  [
    'a key constructor.prototype',
    '{"name":"a","constructor":{"prototype":{"polluted":true}}}',
    forbidden,
  ],
  [
    'a key __proto__ fully escaped',
    '{"name":"a","\\u005f\\u005fproto\\u005f\\u005f":{}}',
    forbidden,
  ],
  ['a key __proto__ before a syntax error (first problem wins)', '{"__proto__":1,', forbidden],
  stores(
    'toString and valueOf (not a forbidden key)',
    '{"id":9007,"name":"Near","toString":1,"valueOf":2}',
    9007,
    'Near',
  ),
  kept('"__proto__" as the name (not a forbidden key)', 9010, '__proto__'),
];

const schema: readonly Sample[] = [
  ['no name', '{"id":11900}', refused(400, 'field_missing')],
  ['a name that is null', '{"id":11905,"name":null}', mismatch],
  ['a tag that is an array', '{"id":11911,"name":"a","tag":[]}', mismatch],
  [
    'every field wrong (the id is reported first)',
    '{"id":1.5,"name":5,"tag":null}',
    refused(400, 'id_not_integer'),
  ],
  kept('an empty name', 11001, ''),
  kept('a name with surrounding spaces, not trimmed', 11003, '  a  '),
  kept('a name of 10,000 characters', 11004, 'x'.repeat(10_000)),
];

/** The samples of every reader property, headers and bodies. */
export const readerCases: readonly HostileCase[] = [
  ...headerCases,
  ...sampleCases('UTF-8', utf8),
  ...sampleCases('JSON syntax', jsonSyntax),
  ...sampleCases('numbers', numbers),
  ...sampleCases('duplicate keys', duplicateKeys),
  ...sampleCases('depth', depth),
  ...sampleCases('prototype keys', prototypeKeys),
  ...sampleCases('schema', schema),
];

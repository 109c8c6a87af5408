import { created, type HostileCase, httpCase, refused } from './case';

/** Concatenates text (as UTF-8) and raw byte values into one body. */
function bytes(...parts: readonly (string | readonly number[])[]): Uint8Array {
  return Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))),
  );
}

/** A body whose name holds these raw bytes between `"a` and `"`. */
const inName = (id: number, raw: readonly number[]) => bytes(`{"id":${id},"name":"a`, raw, '"}');

const invalid = refused(400, 'body_invalid_utf8');
const lone = refused(400, 'body_lone_surrogate');

function utf16(text: string, bigEndian: boolean, bom: boolean): Uint8Array {
  const le = Buffer.from(`${bom ? '\ufeff' : ''}${text}`, 'utf16le');
  if (!bigEndian) return le;
  const be = Buffer.from(le);
  for (let i = 0; i + 1 < be.length; i += 2) [be[i], be[i + 1]] = [be[i + 1] ?? 0, be[i] ?? 0];
  return be;
}

/** Malformed byte sequences: each must be refused as not UTF-8, wherever it sits. */
const malformed: readonly [string, readonly number[]][] = [
  ['an overlong "/" (C0 AF)', [0xc0, 0xaf]],
  ['an overlong NUL (C0 80)', [0xc0, 0x80]],
  ['an overlong quote (C0 A2) that would close the string', [0xc0, 0xa2]],
  ['a three-byte overlong "/" (E0 80 AF)', [0xe0, 0x80, 0xaf]],
  ['a four-byte overlong "/" (F0 80 80 AF)', [0xf0, 0x80, 0x80, 0xaf]],
  ['an encoded high surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['an encoded low surrogate (ED B0 80)', [0xed, 0xb0, 0x80]],
  ['a CESU-8 surrogate pair (ED A0 BD ED B8 80)', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]],
  ['a truncated two-byte sequence (C3)', [0xc3]],
  ['a truncated three-byte sequence (E2 82)', [0xe2, 0x82]],
  ['a truncated four-byte sequence (F0 9F 98)', [0xf0, 0x9f, 0x98]],
  ['a lone continuation byte (80)', [0x80]],
  ['a lone continuation byte (BF)', [0xbf]],
  ['the never-valid byte C1', [0xc1, 0x81]],
  ['the never-valid byte F5', [0xf5, 0x80, 0x80, 0x80]],
  ['the never-valid byte FE', [0xfe]],
  ['the never-valid byte FF', [0xff]],
  ['a code point above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ['Latin-1 "é" as one byte (E9)', [0xe9]],
];

const ok = (id: number, name: string) => created(BigInt(id), name);

/** Bytes that are not UTF-8, BOMs, UTF-16 bodies, escaped surrogates, and text kept exactly. */
export const utf8Cases: readonly HostileCase[] = [
  ...malformed.map(([what, raw]) =>
    httpCase('UTF-8', `${what} in the name`, inName(4900, raw), invalid),
  ),
  httpCase(
    'UTF-8',
    'a truncated sequence as the last byte of the body',
    bytes('{"id":4901,"name":"a"}', [0xc3]),
    invalid,
  ),
  httpCase(
    'UTF-8',
    'an invalid byte in a member that is ignored',
    bytes('{"id":4902,"name":"a","x":"', [0xff], '"}'),
    invalid,
  ),
  httpCase(
    'UTF-8',
    'an invalid byte where whitespace goes',
    bytes('{"id":4903,', [0xa0], '"name":"a"}'),
    invalid,
  ),
  httpCase(
    'UTF-8',
    'a UTF-16LE body with its BOM',
    utf16('{"id":4904,"name":"a"}', false, true),
    invalid,
  ),
  httpCase(
    'UTF-8',
    'a UTF-16BE body with its BOM',
    utf16('{"id":4905,"name":"a"}', true, true),
    invalid,
  ),
  httpCase(
    'UTF-8',
    'a UTF-16LE body without a BOM (NUL bytes between characters)',
    utf16('{"id":4906,"name":"a"}', false, false),
    refused(400, 'body_not_json'),
  ),
  httpCase('UTF-8', 'a UTF-32LE BOM', bytes([0xff, 0xfe, 0, 0], '{"id":4907,"name":"a"}'), invalid),
  httpCase(
    'UTF-8',
    'one leading UTF-8 BOM',
    bytes([0xef, 0xbb, 0xbf], '{"id":4001,"name":"Bom"}'),
    ok(4001, 'Bom'),
  ),
  httpCase(
    'UTF-8',
    'two leading UTF-8 BOMs',
    bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '{"id":4908,"name":"a"}'),
    refused(400, 'body_not_json'),
  ),
  httpCase(
    'UTF-8',
    'a BOM after leading whitespace',
    bytes(' ', [0xef, 0xbb, 0xbf], '{"id":4909,"name":"a"}'),
    refused(400, 'body_not_json'),
  ),
  httpCase(
    'UTF-8',
    'a BOM after the object',
    bytes('{"id":4910,"name":"a"}', [0xef, 0xbb, 0xbf]),
    refused(400, 'body_not_json'),
  ),
  httpCase(
    'UTF-8',
    'a BOM inside the name, kept',
    '{"id":4002,"name":"\ufeffa"}',
    ok(4002, '\ufeffa'),
  ),
  httpCase(
    'UTF-8',
    'a four-byte character, kept',
    '{"id":4003,"name":"🌱 Monstera"}',
    ok(4003, '🌱 Monstera'),
  ),
  httpCase(
    'UTF-8',
    'the noncharacters U+FFFE and U+FFFF, kept',
    '{"id":4004,"name":"\ufffe\uffff"}',
    ok(4004, '\ufffe\uffff'),
  ),
  httpCase(
    'UTF-8',
    'raw U+2028 and U+2029 in a string, kept',
    '{"id":4005,"name":"a\u2028b\u2029"}',
    ok(4005, 'a\u2028b\u2029'),
  ),
  httpCase(
    'UTF-8',
    'a decomposed "é" (NFD), not normalised',
    '{"id":4006,"name":"Cafe\u0301"}',
    ok(4006, 'Cafe\u0301'),
  ),
  httpCase(
    'UTF-8',
    'a DEL and a C1 control character, kept',
    '{"id":4007,"name":"a\u007f\u0085"}',
    ok(4007, 'a\u007f\u0085'),
  ),
  httpCase(
    'UTF-8',
    'an escaped surrogate pair, decoded',
    '{"id":4008,"name":"\\ud83c\\udf31"}',
    ok(4008, '🌱'),
  ),
  httpCase(
    'UTF-8',
    'an escaped surrogate pair in capitals, decoded',
    '{"id":4009,"name":"\\uD83C\\uDF31"}',
    ok(4009, '🌱'),
  ),
  httpCase('UTF-8', 'an escaped lone high surrogate', '{"id":4911,"name":"\\ud800"}', lone),
  httpCase('UTF-8', 'an escaped lone low surrogate', '{"id":4912,"name":"\\udfff"}', lone),
  httpCase(
    'UTF-8',
    'an escaped high surrogate followed by a letter',
    '{"id":4913,"name":"\\ud800\\u0041"}',
    lone,
  ),
  httpCase(
    'UTF-8',
    'an escaped surrogate pair in the wrong order',
    '{"id":4914,"name":"\\ude00\\ud83d"}',
    lone,
  ),
  httpCase(
    'UTF-8',
    'an escaped high surrogate at the end of a string',
    '{"id":4915,"name":"a\\ud83d"}',
    lone,
  ),
  httpCase(
    'UTF-8',
    'an escaped lone surrogate in a key',
    '{"id":4916,"name":"a","\\ud800":1}',
    lone,
  ),
  httpCase(
    'UTF-8',
    'an escaped lone surrogate in an ignored value',
    '{"id":4917,"name":"a","x":["\\udc00"]}',
    lone,
  ),
  httpCase(
    'UTF-8',
    'an escaped NUL in the name',
    '{"id":4918,"name":"a\\u0000"}',
    refused(400, 'string_contains_nul'),
  ),
  httpCase(
    'UTF-8',
    'an escaped NUL in the tag',
    '{"id":4919,"name":"a","tag":"\\u0000"}',
    refused(400, 'string_contains_nul'),
  ),
  httpCase(
    'UTF-8',
    'an escaped NUL in an ignored member',
    '{"id":4010,"name":"Nul elsewhere","x":"\\u0000"}',
    ok(4010, 'Nul elsewhere'),
  ),
  httpCase(
    'UTF-8',
    'a raw NUL byte in the name',
    bytes('{"id":4920,"name":"a', [0], '"}'),
    refused(400, 'body_not_json'),
  ),
];

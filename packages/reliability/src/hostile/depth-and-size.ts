import { created, type HostileCase, httpCase, refused, type RequestContext } from './case';
import { chunked, rawHead } from './raw-request';

/** `n` nested arrays. */
const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
/** `n` nested objects. */
const objects = (n: number) => `${'{"a":'.repeat(n - 1)}{}${'}'.repeat(n - 1)}`;
/** `n` levels alternating arrays and objects, the outermost an array, around a `0`. */
const alternating = (n: number) => {
  let value = '0';
  for (let level = n; level >= 1; level -= 1) {
    value = level % 2 === 1 ? `[${value}]` : `{"a":${value}}`;
  }
  return value;
};
/** A plant whose ignored member `x` holds `value`: the plant object is level 1. */
const withX = (id: number, value: string) => `{"id":${id},"name":"Deep","x":${value}}`;

const tooDeep = refused(400, 'body_too_deep');
const tooLarge = refused(413, 'body_too_large');

/** Nesting up to 64 levels (the plant object counts as the first) and past it. */
export const depthCases: readonly HostileCase[] = [
  httpCase(
    'depth',
    '64 levels: the object and 63 nested arrays',
    withX(8001, arrays(63)),
    created(8001n, 'Deep'),
  ),
  httpCase('depth', '65 levels: the object and 64 nested arrays', withX(8900, arrays(64)), tooDeep),
  httpCase(
    'depth',
    '64 levels: the object and 63 nested objects',
    withX(8002, objects(63)),
    created(8002n, 'Deep'),
  ),
  httpCase(
    'depth',
    '65 levels: the object and 64 nested objects',
    withX(8901, objects(64)),
    tooDeep,
  ),
  httpCase(
    'depth',
    '65 levels alternating arrays and objects',
    withX(8902, alternating(64)),
    tooDeep,
  ),
  httpCase(
    'depth',
    '64 levels of arrays at the top (not an object)',
    arrays(64),
    refused(400, 'body_not_object'),
  ),
  httpCase('depth', '65 levels of arrays at the top', arrays(65), tooDeep),
  httpCase('depth', '5,000 levels', withX(8903, arrays(5000)), tooDeep),
  httpCase('depth', '16,000 arrays opened and never closed', '['.repeat(16_000), tooDeep),
  httpCase(
    'depth',
    '65 levels in the tag',
    `{"id":8904,"name":"Deep","tag":${arrays(64)}}`,
    tooDeep,
  ),
  httpCase(
    'depth',
    '64 levels in the tag (deep enough, but not a string)',
    `{"id":8905,"name":"Deep","tag":${arrays(63)}}`,
    refused(400, 'schema_mismatch'),
  ),
  httpCase(
    'depth',
    '65 levels after a syntax error (the first problem wins)',
    `{"id":8906,,"x":${arrays(64)}}`,
    refused(400, 'body_not_json'),
  ),
  httpCase(
    'depth',
    '100,000 levels (over the size limit before any parsing)',
    arrays(100_000),
    tooLarge,
  ),
];

const LIMIT = 16_384;

/** A valid plant body of exactly `bytes` UTF-8 bytes, padded in its name with `unit`. */
function sized(id: number, bytes: number, unit = 'a'): { body: string; name: string } {
  const frame = Buffer.byteLength(`{"id":${id},"name":""}`);
  const unitBytes = Buffer.byteLength(unit);
  const count = Math.floor((bytes - frame) / unitBytes);
  const rest = bytes - frame - count * unitBytes;
  const name = unit.repeat(count) + 'a'.repeat(rest);
  return { body: `{"id":${id},"name":"${name}"}`, name };
}

const at = (id: number, bytes: number, unit?: string) => {
  const { body, name } = sized(id, bytes, unit);
  return { body, name, expect: created(BigInt(id), name) };
};

const exactly = at(10_001, LIMIT);
const below = at(10_002, LIMIT - 1);
const multibyte = at(10_003, LIMIT, '€');
const chunkedLimit = at(10_004, LIMIT);
const paddedBody = `{"id":10005,"name":"Pad"}${' '.repeat(LIMIT - 25)}`;
const withBom = at(10_006, LIMIT - 3);

const raw = (
  name: string,
  bytes: (context: RequestContext) => string,
  expect: HostileCase['expect'],
): HostileCase => ({
  group: 'sizes',
  name,
  request: { kind: 'raw', bytes },
  expect,
});

/** The 16 KiB body limit, to the byte, declared and chunked, and lengths far past it. */
export const sizeCases: readonly HostileCase[] = [
  httpCase('sizes', 'a body of exactly 16 KiB', exactly.body, exactly.expect),
  httpCase('sizes', 'a body of 16 KiB - 1', below.body, below.expect),
  httpCase('sizes', 'a body of 16 KiB + 1', sized(10_900, LIMIT + 1).body, tooLarge),
  httpCase(
    'sizes',
    'a body of exactly 16 KiB in three-byte characters',
    multibyte.body,
    multibyte.expect,
  ),
  httpCase(
    'sizes',
    'fewer than 16 Ki characters but 16 KiB + 2 bytes',
    sized(10_901, LIMIT + 2, '€').body,
    tooLarge,
  ),
  httpCase(
    'sizes',
    'a body of 16 KiB whose end is whitespace',
    paddedBody,
    created(10_005n, 'Pad'),
  ),
  httpCase('sizes', 'a BOM and a body, 16 KiB in all', `\ufeff${withBom.body}`, withBom.expect),
  httpCase(
    'sizes',
    'a BOM and a body, 16 KiB + 1 in all',
    `\ufeff${sized(10_902, LIMIT - 2).body}`,
    tooLarge,
  ),
  httpCase('sizes', 'a body of 1 MiB', sized(10_903, 1 << 20).body, tooLarge),
  raw(
    'a chunked body of exactly 16 KiB in many chunks',
    (context) =>
      rawHead(context, ['Transfer-Encoding: chunked']) +
      chunked(chunkedLimit.body.match(/.{1,1000}/gs) ?? []),
    chunkedLimit.expect,
  ),
  raw(
    'a chunked body of 16 KiB + 1',
    (context) =>
      rawHead(context, ['Transfer-Encoding: chunked']) + chunked([sized(10_904, LIMIT + 1).body]),
    tooLarge,
  ),
  raw(
    'a chunked body of 1 MiB',
    (context) =>
      rawHead(context, ['Transfer-Encoding: chunked']) + chunked([sized(10_905, 1 << 20).body]),
    tooLarge,
  ),
  raw(
    'a declared length of 16 KiB + 1 with a small body',
    (context) => rawHead(context, [`Content-Length: ${LIMIT + 1}`]) + '{"id":10906,"name":"a"}',
    tooLarge,
  ),
  raw(
    'a declared length of 1 TiB with a small body',
    (context) => rawHead(context, ['Content-Length: 1099511627776']) + '{"id":10907,"name":"a"}',
    tooLarge,
  ),
  raw(
    'a declared length of 2^53 + 1',
    (context) => rawHead(context, ['Content-Length: 9007199254740993']) + '{"id":10908,"name":"a"}',
    tooLarge,
  ),
];

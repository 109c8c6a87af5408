import { chunked, framingLine, rawHead } from '@plantstore/http-suite/client';
import { created, type HostileCase, httpCase, rawCase, refused, type RequestContext } from './case';

const LIMIT = 16_384;
const tooLarge = refused(413, 'body_too_large');

/** A valid plant body of exactly `bytes` UTF-8 bytes, padded in its name with `unit`. */
function sized(id: number, bytes: number, unit = 'a'): { body: string; name: string } {
  const frame = Buffer.byteLength(`{"id":${id},"name":""}`);
  const unitBytes = Buffer.byteLength(unit);
  const count = Math.floor((bytes - frame) / unitBytes);
  const rest = bytes - frame - count * unitBytes;
  const name = unit.repeat(count) + 'a'.repeat(rest);
  return { body: `{"id":${id},"name":"${name}"}`, name };
}

/** A body of exactly `bytes` bytes, and the plant a 200 must store. */
const at = (id: number, bytes: number, unit?: string) => {
  const { body, name } = sized(id, bytes, unit);
  return { body, expect: created(BigInt(id), name) };
};

const multibyte = at(10_003, LIMIT, '€');
const withBom = at(10_006, LIMIT - 3);
const chunkedLimit = at(10_004, LIMIT);

/** A small body under a declared `Content-Length`: the route refuses it before reading. */
const declared = (length: string, id: number) => (context: RequestContext) =>
  rawHead(context, [`Content-Length: ${length}`]) + `{"id":${id},"name":"a"}`;

/**
 * The 16 KiB body limit counted in bytes, not characters (a BOM included), chunked in many chunks,
 * and declared lengths far past it. The limit to the byte in ASCII, with whitespace after the body,
 * and streamed past it are in the fuzz's near-limit bodies and the contract suite.
 */
export const sizeCases: readonly HostileCase[] = [
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
  httpCase('sizes', 'a BOM and a body, 16 KiB in all', `\ufeff${withBom.body}`, withBom.expect),
  httpCase(
    'sizes',
    'a BOM and a body, 16 KiB + 1 in all',
    `\ufeff${sized(10_902, LIMIT - 2).body}`,
    tooLarge,
  ),
  rawCase(
    'sizes',
    'a chunked body of exactly 16 KiB in many chunks',
    (context) =>
      rawHead(context, [framingLine('chunked')]) +
      chunked(chunkedLimit.body.match(/.{1,1000}/gs) ?? []),
    chunkedLimit.expect,
  ),
  rawCase(
    'sizes',
    'a declared length of 16 KiB + 1 with a small body',
    declared(`${LIMIT + 1}`, 10_906),
    tooLarge,
  ),
  rawCase(
    'sizes',
    'a declared length of 1 TiB with a small body',
    declared('1099511627776', 10_907),
    tooLarge,
  ),
  rawCase('sizes', 'a declared length of 2^53 + 1', declared('9007199254740993', 10_908), tooLarge),
];

import { gzipSync } from 'node:zlib';
import {
  created,
  type Expectation,
  type HostileCase,
  rawCase,
  refused,
  type RequestContext,
} from './case';
import { chunked, plantBody, rawHead, type RawHeadOptions } from '@plantstore/http-suite/client';

const byNode: Expectation = { by: 'node', status: 400 };

const raw = (
  name: string,
  bytes: (context: RequestContext) => string,
  expect: Expectation,
  extra?: Parameters<typeof rawCase>[4],
): HostileCase => rawCase('framing', name, bytes, expect, extra);

/** A request with these header lines and this body, written as given. */
const post =
  (lines: readonly string[], body: string, options?: RawHeadOptions) =>
  (context: RequestContext): string =>
    rawHead(context, lines, options) + body;

const fern = (id: number) => plantBody({ id, name: 'Fern' });
const length = (body: string) => `Content-Length: ${Buffer.byteLength(body)}`;
const TE = 'Transfer-Encoding: chunked';

/** Bytes framed as one chunk and the last chunk, as a latin1 string (one character per byte). */
const chunkedBytes = (bytes: Uint8Array) =>
  `${bytes.length.toString(16)}\r\n${Buffer.from(bytes).toString('latin1')}\r\n0\r\n\r\n`;

/**
 * Message framing: lengths that lie, both lengths at once, chunked oddities, smuggling attempts.
 * Node's HTTP parser refuses what is ambiguous before the app sees it (`by: 'node'`); whatever it
 * lets through, the route must answer as the contract says.
 */
export const framingCases: readonly HostileCase[] = [
  raw(
    'a Content-Length that matches the body',
    post([length(fern(1001))], fern(1001)),
    created(1001n, 'Fern'),
  ),
  raw(
    'a Content-Length with leading zeros',
    post([`Content-Length: 000${Buffer.byteLength(fern(1002))}`], fern(1002)),
    created(1002n, 'Fern'),
  ),
  raw(
    'a CRLF after a body of the declared length (tolerated between messages)',
    post([length(fern(1003))], `${fern(1003)}\r\n`),
    created(1003n, 'Fern'),
  ),
  raw(
    'a Content-Length smaller than the body, the rest garbage',
    post(['Content-Length: 10'], fern(1090)),
    byNode,
  ),
  raw(
    'a Content-Length of 0 followed by a smuggled second request',
    (context) =>
      rawHead(context, ['Content-Length: 0'], { close: false }) +
      `POST ${context.path} HTTP/1.1\r\nHost: ${context.host}\r\nContent-Type: application/json\r\n` +
      `${length(fern(1091))}\r\nConnection: close\r\n\r\n${fern(1091)}`,
    refused(400, 'body_empty'),
    { pipelined: [{ status: 401, code: 'token_missing' }] },
  ),
  raw(
    'a Content-Length larger than the body, the client waiting',
    post(['Content-Length: 100'], fern(1092)),
    refused(408, 'body_timeout'),
  ),
  raw(
    'a Content-Length larger than the body, the client half-closing',
    post(['Content-Length: 100'], fern(1093)),
    byNode,
    { endAfterWrite: true },
  ),
  raw('a negative Content-Length', post(['Content-Length: -1'], fern(1094)), byNode),
  raw(
    'a Content-Length with a plus sign',
    post([`Content-Length: +${Buffer.byteLength(fern(1095))}`], fern(1095)),
    byNode,
  ),
  raw('a Content-Length in exponent form', post(['Content-Length: 1e3'], fern(1096)), byNode),
  raw(
    'a Content-Length of 20 digits (overflow)',
    post(['Content-Length: 99999999999999999999'], fern(1097)),
    byNode,
  ),
  raw(
    'two equal Content-Length headers',
    post([length(fern(1098)), length(fern(1098))], fern(1098)),
    byNode,
  ),
  raw(
    'two different Content-Length headers',
    post(['Content-Length: 5', length(fern(1099))], fern(1099)),
    byNode,
  ),
  raw(
    'a Content-Length list "n, n"',
    post([`Content-Length: 19, 19`], plantBody({ id: 1, name: 'x' })),
    byNode,
  ),
  raw(
    'Content-Length and Transfer-Encoding: chunked',
    post(['Content-Length: 5', TE], chunked([fern(1080)])),
    byNode,
  ),
  raw(
    'Transfer-Encoding: chunked and then Content-Length',
    post([TE, 'Content-Length: 5'], chunked([fern(1081)])),
    byNode,
  ),
  raw('a chunked body', post([TE], chunked([fern(1004)])), created(1004n, 'Fern')),
  raw(
    'a chunked body in one-byte chunks',
    post([TE], chunked([...fern(1005)])),
    created(1005n, 'Fern'),
  ),
  raw(
    'a chunked body with chunk extensions',
    post(
      [TE],
      `${Buffer.byteLength(fern(1006)).toString(16)};x=1;y="z"\r\n${fern(1006)}\r\n0;end\r\n\r\n`,
    ),
    created(1006n, 'Fern'),
  ),
  raw(
    'a chunked body with a trailer field',
    post(
      [TE],
      `${Buffer.byteLength(fern(1007)).toString(16)}\r\n${fern(1007)}\r\n0\r\nX-Trailer: 1\r\n\r\n`,
    ),
    created(1007n, 'Fern'),
  ),
  raw(
    'a chunk size in upper-case hex with leading zeros',
    post(
      [TE],
      `000${Buffer.byteLength(fern(1008)).toString(16).toUpperCase()}\r\n${fern(1008)}\r\n0\r\n\r\n`,
    ),
    created(1008n, 'Fern'),
  ),
  raw(
    'Transfer-Encoding: CHUNKED in capitals',
    post(['Transfer-Encoding: CHUNKED'], chunked([fern(1009)])),
    created(1009n, 'Fern'),
  ),
  raw('a chunk size that is not hex', post([TE], `zz\r\n${fern(1082)}\r\n0\r\n\r\n`), byNode),
  raw('a negative chunk size', post([TE], `-1\r\n${fern(1083)}\r\n0\r\n\r\n`), byNode),
  raw(
    'a chunk size that overflows',
    post([TE], `fffffffffffffffffff\r\n${fern(1084)}\r\n0\r\n\r\n`),
    byNode,
  ),
  raw('a chunk longer than its size', post([TE], `5\r\n${fern(1085)}\r\n0\r\n\r\n`), byNode),
  raw(
    'chunked framing with bare LF line endings',
    post([TE], `${Buffer.byteLength(fern(1086)).toString(16)}\n${fern(1086)}\n0\n\n`),
    byNode,
  ),
  raw(
    'a chunked body without its last chunk, the client waiting',
    post([TE], `${Buffer.byteLength(fern(1087)).toString(16)}\r\n${fern(1087)}\r\n`),
    refused(408, 'body_timeout'),
  ),
  raw(
    'a chunked body without its last chunk, the client half-closing',
    post([TE], `${Buffer.byteLength(fern(1088)).toString(16)}\r\n${fern(1088)}\r\n`),
    byNode,
    { endAfterWrite: true },
  ),
  raw(
    'Transfer-Encoding: chunked, gzip (chunked not last)',
    post(['Transfer-Encoding: chunked, gzip'], chunked([fern(1070)])),
    byNode,
  ),
  raw(
    'Transfer-Encoding: gzip, chunked over a plain body',
    post(['Transfer-Encoding: gzip, chunked'], chunked([fern(1010)])),
    // Node de-chunks but decodes no other transfer coding: the route refuses the body as compressed.
    refused(415, 'content_encoding_unsupported'),
  ),
  raw(
    'Transfer-Encoding: gzip, chunked over a gzip body',
    post(['Transfer-Encoding: gzip, chunked'], chunkedBytes(gzipSync(fern(1079)))),
    refused(415, 'content_encoding_unsupported'),
  ),
  raw(
    'the Authorization header sent only as a chunked trailer',
    (context) =>
      rawHead(context, [TE], { auth: false }) +
      `${Buffer.byteLength(fern(1060)).toString(16)}\r\n${fern(1060)}\r\n0\r\n` +
      `Authorization: Bearer ${context.token}\r\n\r\n`,
    refused(401, 'token_missing'),
  ),
  raw(
    'the Content-Type sent only as a chunked trailer',
    post(
      [TE],
      `${Buffer.byteLength(fern(1061)).toString(16)}\r\n${fern(1061)}\r\n0\r\nContent-Type: application/json\r\n\r\n`,
      { json: false },
    ),
    refused(415, 'media_type_unsupported'),
  ),
  raw('Transfer-Encoding: identity', post(['Transfer-Encoding: identity'], fern(1071)), byNode),
  raw(
    'Transfer-Encoding: xchunked',
    post(['Transfer-Encoding: xchunked'], chunked([fern(1072)])),
    byNode,
  ),
  raw('two Transfer-Encoding: chunked headers', post([TE, TE], chunked([fern(1073)])), byNode),
  raw(
    'a POST with neither Content-Length nor Transfer-Encoding',
    post([], ''),
    refused(400, 'body_empty'),
  ),
  raw(
    'an HTTP/1.0 request with a Content-Length',
    post([length(fern(1011))], fern(1011), { version: 'HTTP/1.0', close: false }),
    created(1011n, 'Fern'),
  ),
  raw(
    'an HTTP/1.0 request with chunked framing',
    post([TE], chunked([fern(1012)]), { version: 'HTTP/1.0', close: false }),
    created(1012n, 'Fern'),
  ),
  raw(
    'a request head with bare LF line endings',
    post([length(fern(1074))], fern(1074), { eol: '\n' }),
    byNode,
  ),
  raw(
    'a folded header line (obs-fold)',
    post([length(fern(1075)), 'X-Folded: a', ' b'], fern(1075)),
    byNode,
  ),
  raw(
    'a space before the colon of Content-Length',
    post([`Content-Length : 19`], fern(1076)),
    byNode,
  ),
  raw(
    'a NUL byte in a header value',
    post([length(fern(1077)), 'X-Nul: a\u0000b'], fern(1077)),
    byNode,
  ),
  raw(
    'a 20 KiB header (over Node’s 16 KiB header limit)',
    post([length(fern(1078)), `X-Big: ${'a'.repeat(20_000)}`], fern(1078)),
    { by: 'node', status: 431 },
  ),
  raw(
    'an unauthenticated request declaring a 1 MiB body it never sends',
    post(['Content-Length: 1048576'], '{', { auth: false }),
    refused(401, 'token_missing'),
  ),
  raw(
    'an unauthenticated chunked body that never ends',
    post([TE], '5\r\n{"id"\r\n', { auth: false }),
    refused(401, 'token_missing'),
  ),
  raw(
    'a wrong Content-Type with a body that never arrives',
    post(['Content-Length: 100'], '{', { json: false }),
    refused(415, 'media_type_unsupported'),
  ),
  raw(
    'Expect: 100-continue with a declared length over the limit',
    post(['Content-Length: 20000', 'Expect: 100-continue'], ''),
    // Node answers 100 Continue on its own before the route runs; the route then refuses.
    { by: 'route', status: 413, code: 'body_too_large' },
  ),
];

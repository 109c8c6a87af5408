import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { created, type HostileCase, httpCase, refused } from './case';
import { plantBody } from './raw-request';

const compressed = refused(415, 'content_encoding_unsupported');
const body = plantBody(3900, 'Fern');

/** `Content-Encoding` values that leave the body as sent. */
const identities: readonly [string, string][] = [
  ['identity', 'identity'],
  ['IDENTITY', 'identity in capitals'],
  ['identity, identity', 'identity twice in a list'],
  [' identity ', 'identity with surrounding spaces'],
  ['', 'an empty value'],
];

/** `Content-Encoding` values that mean a compressed body: always 415. */
const codings: readonly [string, string][] = [
  ['gzip', 'gzip'],
  ['x-gzip', 'x-gzip'],
  ['GZIP', 'gzip in capitals'],
  ['br', 'br'],
  ['deflate', 'deflate'],
  ['compress', 'compress'],
  ['zstd', 'zstd'],
  ['identity, gzip', 'identity, gzip'],
  ['gzip, identity', 'gzip, identity'],
  ['identity,gzip', 'identity,gzip without a space'],
  ['chunked', 'chunked (a transfer coding, not a content coding)'],
  ['unknown-coding', 'an unknown coding'],
];

let nextId = 3001;

/** `Content-Encoding`: compressed bodies are refused with 415 before a byte is read. */
export const encodingCases: readonly HostileCase[] = [
  ...identities.map(([value, what]) => {
    const id = nextId++;
    return httpCase(
      'encodings',
      `Content-Encoding: ${what}`,
      plantBody(id, 'Fern'),
      created(BigInt(id), 'Fern'),
      {
        'content-encoding': value,
      },
    );
  }),
  ...codings.map(([value, what]) =>
    httpCase('encodings', `Content-Encoding: ${what}`, body, compressed, {
      'content-encoding': value,
    }),
  ),
  httpCase('encodings', 'a gzip body declared gzip', gzipSync(body), compressed, {
    'content-encoding': 'gzip',
  }),
  httpCase('encodings', 'a brotli body declared br', brotliCompressSync(body), compressed, {
    'content-encoding': 'br',
  }),
  httpCase('encodings', 'a deflate body declared deflate', deflateSync(body), compressed, {
    'content-encoding': 'deflate',
  }),
  httpCase(
    'encodings',
    'a gzip body declared identity',
    gzipSync(body),
    refused(400, 'body_invalid_utf8'),
    {
      'content-encoding': 'identity',
    },
  ),
  httpCase(
    'encodings',
    'a gzip body with no Content-Encoding',
    gzipSync(body),
    refused(400, 'body_invalid_utf8'),
  ),
  httpCase('encodings', 'two Content-Encoding headers, identity then gzip', body, compressed, {
    'content-encoding': ['identity', 'gzip'],
  }),
  httpCase(
    'encodings',
    'gzip with a wrong Content-Type (encoding is checked first)',
    body,
    compressed,
    {
      'content-encoding': 'gzip',
      'content-type': 'text/plain',
    },
  ),
];

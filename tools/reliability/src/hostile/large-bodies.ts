import { created, type HostileCase, httpCase, refused } from './case';

/** The body limit of the large-body run: 1 MiB, so the reader itself meets the worst inputs. */
export const LARGE_LIMIT = 1 << 20;

const keys = (count: number) => Array.from({ length: count }, (_, k) => `"k${k}":${k}`).join(',');

/**
 * Bodies close to 1 MiB that would expose work growing faster than the input (deep recursion,
 * quadratic key checks, slow number handling): each must be answered correctly and cheaply.
 */
export const largeBodyCases: readonly HostileCase[] = [
  httpCase(
    'depth',
    '100,000 nested arrays',
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    refused(400, 'body_too_deep'),
  ),
  httpCase(
    'depth',
    '100,000 nested objects',
    `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`,
    refused(400, 'body_too_deep'),
  ),
  httpCase(
    'depth',
    '500,000 arrays opened and never closed',
    '['.repeat(500_000),
    refused(400, 'body_too_deep'),
  ),
  httpCase(
    'depth',
    '100,000 levels in an ignored member after a valid plant',
    `{"id":30001,"name":"a","x":${'['.repeat(100_000)}}`,
    refused(400, 'body_too_deep'),
  ),
  httpCase(
    'duplicate keys',
    '60,000 distinct keys',
    `{"id":30002,"name":"Many",${keys(60_000)}}`,
    created(30_002n, 'Many'),
  ),
  httpCase(
    'duplicate keys',
    '60,000 keys and the first again at the end',
    `{"id":30003,"name":"a",${keys(60_000)},"k0":0}`,
    refused(400, 'body_duplicate_key'),
  ),
  httpCase(
    'duplicate keys',
    '12,000 small objects of 8 keys',
    `{"id":30004,"name":"Small","x":[${Array.from({ length: 12_000 }, () => `{${keys(8)}}`).join(',')}]}`,
    created(30_004n, 'Small'),
  ),
  httpCase(
    'numbers',
    'an id of 1,000,000 digits',
    `{"id":${'9'.repeat(1_000_000)},"name":"a"}`,
    refused(400, 'id_out_of_range'),
  ),
  httpCase(
    'numbers',
    'an id of 1,000,000 fraction zeros',
    `{"id":30005.${'0'.repeat(1_000_000)},"name":"Zeros"}`,
    created(30_005n, 'Zeros'),
  ),
  httpCase(
    'numbers',
    'an exponent of 1,000,000 digits',
    `{"id":1e-${'9'.repeat(1_000_000)},"name":"a"}`,
    refused(400, 'id_not_integer'),
  ),
  httpCase(
    'UTF-8',
    'a name of 300,000 escapes',
    `{"id":30006,"name":"${'\\u00e9'.repeat(170_000)}"}`,
    created(30_006n, 'é'.repeat(170_000)),
  ),
  httpCase(
    'UTF-8',
    '300,000 four-byte characters',
    `{"id":30007,"name":"${'🌱'.repeat(250_000)}"}`,
    created(30_007n, '🌱'.repeat(250_000)),
  ),
  httpCase(
    'UTF-8',
    'an invalid byte at the very end of 1 MiB',
    Buffer.concat([
      Buffer.from(`{"id":30008,"name":"${'a'.repeat(LARGE_LIMIT - 40)}"}`),
      Buffer.from([0xff]),
    ]),
    refused(400, 'body_invalid_utf8'),
  ),
  httpCase(
    'sizes',
    'a body one byte over 1 MiB',
    `{"id":30009,"name":"${'a'.repeat(LARGE_LIMIT - 21)}"}`,
    refused(413, 'body_too_large'),
  ),
];

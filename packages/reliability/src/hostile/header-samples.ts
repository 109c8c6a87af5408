import { gzipSync } from 'node:zlib';
import { plantBody } from '@plantstore/http-suite/client';
import {
  type CaseGroup,
  type CaseHeaders,
  created,
  type Expectation,
  type HostileCase,
  httpCase,
  refused,
} from './case';

/** One header sample: the sentence, the header values, and the answer (`undefined`: 200, stored). */
type HeaderSample = readonly [what: string, headers: CaseHeaders, refusal?: Expectation];

const unsupported = refused(415, 'media_type_unsupported');
const compressed = refused(415, 'content_encoding_unsupported');
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
function samples(group: CaseGroup, rows: readonly HeaderSample[], firstId: number): HostileCase[] {
  return rows.map(([what, headers, refusal], index) => {
    const id = firstId + index;
    const body = plantBody({ id, name: 'Fern' });
    return httpCase(group, what, body, refusal ?? created(BigInt(id), 'Fern'), headers);
  });
}

const fern = plantBody({ id: 3900, name: 'Fern' });

/** The headers that describe a body: media type, charset, content coding. */
export const headerCases: readonly HostileCase[] = [
  ...samples('media types', mediaTypes, 2001),
  ...samples('encodings', encodings, 3001),
  httpCase('encodings', 'a gzip body declared gzip', gzipSync(fern), compressed, coding('gzip')),
  httpCase(
    'encodings',
    'a gzip body declared identity',
    gzipSync(fern),
    refused(400, 'body_invalid_utf8'),
    coding('identity'),
  ),
];

import { created, type HostileCase, httpCase, refused } from './case';
import { plantBody } from './raw-request';

const unsupported = refused(415, 'media_type_unsupported');

/** Content types the contract accepts: `application/json`, charset absent or UTF-8, in any case. */
const accepted: readonly [string, string][] = [
  ['application/json', 'the plain media type'],
  ['APPLICATION/JSON', 'the media type in capitals'],
  ['Application/Json; Charset=UTF-8', 'mixed case with a charset in capitals'],
  ['application/json;charset=utf-8', 'a charset without a space'],
  ['application/json ; charset=utf-8', 'a space before the semicolon'],
  ['application/json;\tcharset=utf-8', 'a tab after the semicolon'],
  ['application/json; charset="utf-8"', 'a quoted charset'],
  ['application/json; charset="UTF-8"', 'a quoted charset in capitals'],
  ['application/json; charset="utf\\-8"', 'a quoted charset with a quoted-pair'],
  ['application/json; foo=bar', 'an unknown parameter'],
  ['application/json; charset=utf-8 ', 'trailing whitespace'],
  ['application/json; charset=utf-8; foo=bar', 'a charset then another parameter'],
  ['application/json; foo=bar; charset=utf-8', 'another parameter then a charset'],
  [
    'application/json; foo="a;b"; charset=utf-8',
    'a quoted parameter holding a semicolon, then a charset',
  ],
  ['application/json; a=1; b=2', 'two unknown parameters'],
  // RFC 9110 §5.6.6: parameters = *( OWS ";" OWS [ parameter ] ), so empty ones are allowed.
  ['application/json;', 'a trailing semicolon'],
  ['application/json; charset=utf-8;', 'a charset and a trailing semicolon'],
];

/** Content types the contract refuses with 415. */
const refusedTypes: readonly [string, string][] = [
  ['', 'an empty value'],
  ['text/json', 'text/json'],
  ['text/plain', 'text/plain'],
  ['text/plain; charset=utf-8', 'text/plain in UTF-8'],
  ['application/jsonx', 'a subtype with a suffix letter'],
  ['application/json-seq', 'application/json-seq'],
  ['application/json-patch+json', 'a +json structured suffix'],
  ['application/merge-patch+json', 'another +json structured suffix'],
  ['application/*', 'a wildcard subtype'],
  ['*/*', 'a full wildcard'],
  ['application/x-www-form-urlencoded', 'a form'],
  ['multipart/form-data; boundary=x', 'a multipart form'],
  ['json', 'a bare subtype'],
  ['application /json', 'a space inside the type'],
  ['application/ json', 'a space after the slash'],
  ['application\\json', 'a backslash for a slash'],
  ['application/json, text/plain', 'a comma-separated list'],
  ['application/json charset=utf-8', 'a parameter without its semicolon'],
  ['application/json; charset=utf-16', 'charset=utf-16'],
  ['application/json; charset=utf-16le', 'charset=utf-16le'],
  ['application/json; charset=utf-32', 'charset=utf-32'],
  ['application/json; charset=utf8', 'charset=utf8 without the dash'],
  ['application/json; charset=iso-8859-1', 'charset=iso-8859-1'],
  ['application/json; charset=us-ascii', 'charset=us-ascii (a subset, still not UTF-8)'],
  ['application/json; charset="utf-16"', 'a quoted charset=utf-16'],
  ['application/json; charset=utf-8; charset=utf-8', 'the charset twice'],
  ['application/json; CHARSET=utf-8; charset=utf-8', 'the charset twice in two cases'],
  ['application/json; charset=utf-16; charset=utf-8', 'two different charsets'],
  ['application/json; charset=', 'an empty charset'],
  ['application/json; charset', 'a charset without a value'],
  ['application/json; charset="utf-8', 'an unterminated quoted charset'],
  ['application/json; =utf-8', 'a parameter without a name'],
];

let nextId = 2001;

/** The `Content-Type` header in all its spellings, and missing or repeated. */
export const mediaTypeCases: readonly HostileCase[] = [
  ...accepted.map(([value, what]) => {
    const id = nextId++;
    return httpCase(
      'media types',
      `Content-Type with ${what}`,
      plantBody(id, 'Fern'),
      created(BigInt(id), 'Fern'),
      {
        'content-type': value,
      },
    );
  }),
  ...refusedTypes.map(([value, what]) =>
    httpCase('media types', `Content-Type with ${what}`, plantBody(2900, 'Fern'), unsupported, {
      'content-type': value,
    }),
  ),
  httpCase('media types', 'no Content-Type', plantBody(2901, 'Fern'), unsupported, {
    'content-type': null,
  }),
  httpCase(
    'media types',
    'two Content-Type headers, both application/json',
    plantBody(2902, 'Fern'),
    unsupported,
    {
      'content-type': ['application/json', 'application/json'],
    },
  ),
  httpCase(
    'media types',
    'two Content-Type headers, json then text',
    plantBody(2903, 'Fern'),
    unsupported,
    {
      'content-type': ['application/json', 'text/plain'],
    },
  ),
];

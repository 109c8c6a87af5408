import { CONTRACT_HEADERS } from '../expect';

/** A token of the suite's issuer, by what it is: `{valid}`, `{expired}` or `{reader}` in a header. */
export type TokenName = 'valid' | 'expired' | 'reader';

/** One request and the answer every entry gives it, to the letter (status, contract headers, body). */
export interface Exchange {
  readonly name: string;
  readonly body: string | Uint8Array;
  /**
   * The request's headers; `{valid}`, `{expired}` and `{reader}` stand for the suite's tokens.
   * Default `Authorization: Bearer {valid}` and `Content-Type: application/json`.
   */
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
  readonly status: number;
  /** The contract headers beyond the route's three (`Content-Type`, `Cache-Control`, `Vary`). */
  readonly extra?: Readonly<Record<string, string>>;
  /** The route answers `Connection: close`: it refused without reading the body. */
  readonly closes?: boolean;
  /** The body: a plant's fields for a 200, else the error's message. */
  readonly answer: Readonly<Record<string, string>> | string;
}

const JSON_HEADERS = { 'content-type': 'application/json' } as const;
const BEARER = { ...JSON_HEADERS, authorization: 'Bearer {valid}' } as const;
const CHALLENGE = 'Bearer realm="plantstore"';
const invalidToken = (description: string) => ({
  'www-authenticate': `${CHALLENGE}, error="invalid_token", error_description="${description}"`,
});
const ID = 'id: expected an integer from -9223372036854775808 to 9223372036854775807, received';
const MEDIA_TYPE =
  'The request body must be sent with Content-Type: application/json (charset, if given, utf-8).';

/**
 * Every request of the contract that one `send` can make, each answered the same by every entry:
 * the exact answer, not only its status. They run in order on a host of their own, so the replay
 * and the conflict follow the create.
 */
export const EXCHANGES: readonly Exchange[] = [
  ok('create', '{"id":1,"name":"Monstera","tag":"aroid"}', { name: 'Monstera', tag: 'aroid' }),
  {
    ...ok('replay', '{"id":1,"name":"Monstera","tag":"aroid"}', { name: 'Monstera', tag: 'aroid' }),
    extra: { 'idempotent-replayed': 'true' },
  },
  refused(
    'conflict',
    '{"id":1,"name":"Other","tag":"aroid"}',
    409,
    'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.',
    false,
  ),
  ok('no tag', '{"id":2,"name":"Fern"}', { name: 'Fern' }),
  ok('int64 max', '{"id":9223372036854775807,"name":"Max"}', { name: 'Max' }),
  ok('2^53 + 1', '{"id":9007199254740993,"name":"Exact"}', { name: 'Exact' }),
  ok('integers by value', '{"id":1e2,"name":"Hundred"}', { name: 'Hundred' }),
  {
    ...ok('BOM and charset', '\ufeff{"id":3,"name":"Bom"}', { name: 'Bom' }),
    headers: { ...BEARER, 'content-type': 'application/json; charset=UTF-8' },
  },
  refused(
    'not JSON',
    '{"id":1,',
    400,
    'The body is not valid JSON: it ends unexpectedly at offset 8.',
    false,
  ),
  refused(
    'not an object',
    '[1,2]',
    400,
    'The body must be a JSON object, but it is an array.',
    false,
  ),
  refused(
    'schema mismatch',
    '{"id":"12","name":5,"tag":null}',
    400,
    `The plant is invalid: ${ID} a string; name: expected a string, received an integer; tag: expected a string or no tag at all, received null.`,
    false,
  ),
  refused('missing name', '{"id":4}', 400, 'The plant is invalid: name: is required.', false),
  refused(
    'out of range',
    '{"id":9223372036854775808,"name":"x"}',
    400,
    `The plant is invalid: ${ID} an integer outside the int64 range.`,
    false,
  ),
  refused(
    'fraction',
    '{"id":1.5,"name":"x"}',
    400,
    `The plant is invalid: ${ID} a number with a fraction.`,
    false,
  ),
  refused(
    'duplicate key',
    '{"id":5,"name":"a","name":"b"}',
    400,
    'The body repeats a key within one object at offset 19; each key may appear only once.',
    false,
  ),
  refused(
    'proto key',
    '{"id":5,"name":"a","__proto__":{}}',
    400,
    'The body uses a reserved key name at offset 19; remove that member.',
    false,
  ),
  refused(
    'too deep',
    `{"id":5,"name":"a","x":${'['.repeat(64)}${']'.repeat(64)}}`,
    400,
    'The body nests deeper than 64 levels at offset 86.',
    false,
  ),
  refused(
    'lone surrogate',
    '{"id":5,"name":"\\ud800"}',
    400,
    'The body has an unpaired surrogate escape at offset 16; escape a character outside the BMP as a high and low \\u pair.',
    false,
  ),
  refused(
    'U+0000',
    '{"id":5,"name":"a\\u0000"}',
    400,
    'The plant is invalid: name: expected a string without the character U+0000, received a string containing U+0000.',
    false,
  ),
  refused(
    'invalid UTF-8',
    Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    400,
    'The request body is not valid UTF-8.',
    false,
  ),
  refused('empty', '', 400, 'The body is empty; send one JSON object.', false),
  {
    ...refused(
      'malformed authorization',
      '{"id":6,"name":"a"}',
      401,
      'The bearer token is not valid: The Authorization header must be Bearer, a space and one token',
    ),
    headers: { ...JSON_HEADERS, authorization: 'Bearer' },
    extra: invalidToken('The Authorization header must be Bearer, a space and one token'),
  },
  {
    ...refused(
      'repeated authorization',
      '{"id":6,"name":"a"}',
      400,
      'The request must carry exactly one Authorization header',
    ),
    // Capitalised: Node's typings allow an array (sent as two header lines) only by index.
    headers: { ...JSON_HEADERS, Authorization: ['Bearer {valid}', 'Bearer {valid}'] },
    extra: {
      'www-authenticate': `${CHALLENGE}, error="invalid_request", error_description="The request must carry exactly one Authorization header"`,
    },
  },
  ...(
    [
      ['no token', JSON_HEADERS],
      ['basic scheme', { ...JSON_HEADERS, authorization: 'Basic YTpi' }],
    ] as const
  ).map(([name, headers]) => ({
    ...refused(
      name,
      '{"id":6,"name":"a"}',
      401,
      'A bearer token is required in the Authorization header.',
    ),
    headers,
    extra: { 'www-authenticate': CHALLENGE },
  })),
  ...(
    [
      ['expired', '{expired}', 'The token has expired'],
      ['malformed token', 'a.b', 'The token is not a compact JWS of three base64url segments'],
    ] as const
  ).map(([name, token, description]) => ({
    ...refused(name, '{"id":6,"name":"a"}', 401, `The bearer token is not valid: ${description}`),
    headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` },
    extra: invalidToken(description),
  })),
  {
    ...refused(
      'insufficient scope',
      '{"id":6,"name":"a"}',
      403,
      'The bearer token lacks a required scope: plants:write.',
    ),
    headers: { ...JSON_HEADERS, authorization: 'Bearer {reader}' },
    extra: {
      'www-authenticate': `${CHALLENGE}, error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:write"`,
    },
  },
  refused(
    'too large',
    `{"id":7,"name":"${'x'.repeat(16_400)}"}`,
    413,
    'The request body exceeds the limit of 16384 bytes.',
  ),
  ...(
    [
      ['text/plain', { ...BEARER, 'content-type': 'text/plain' }],
      ['latin1', { ...BEARER, 'content-type': 'application/json; charset=latin1' }],
      ['no content type', { authorization: 'Bearer {valid}' }],
    ] as const
  ).map(([name, headers]) => ({
    ...refused(name, '{"id":8,"name":"a"}', 415, MEDIA_TYPE),
    headers,
  })),
  {
    ...refused(
      'gzip',
      '{"id":8,"name":"a"}',
      415,
      'Compressed request bodies are not accepted; send the JSON uncompressed (Content-Encoding: identity).',
    ),
    headers: { ...BEARER, 'content-encoding': 'gzip' },
  },
];

function ok(name: string, body: string, plant: Readonly<Record<string, string>>): Exchange {
  return { name, body, status: 200, answer: plant };
}

/**
 * A refusal; the route closes the connection after one, unless it read the whole body first (a 400 of
 * what the body holds, a 409): `closes` false then.
 */
function refused(
  name: string,
  body: string | Uint8Array,
  status: number,
  message: string,
  closes = true,
): Exchange {
  return { name, body, status, answer: message, closes };
}

/**
 * The view of `contractView` an exchange expects: the route's headers, its extra ones, and
 * `Connection: close` where the route closes (the request asked to keep the connection alive).
 *
 * @param exchange - the exchange
 * @returns the expected view
 */
export function expectedView(exchange: Exchange): Record<string, unknown> {
  const headers: Record<string, string | undefined> = Object.fromEntries(
    CONTRACT_HEADERS.map((name) => [name, undefined]),
  );
  Object.assign(headers, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    vary: 'Authorization',
    ...(exchange.closes === true ? { connection: 'close' } : {}),
    ...exchange.extra,
  });
  // As `contractView` has it: a connection kept alive is no header of the route's.
  if (exchange.closes !== true) delete headers['connection'];
  const body =
    typeof exchange.answer === 'string'
      ? { error: exchange.status, message: exchange.answer }
      : exchange.answer;
  return { status: exchange.status, headers, body: JSON.stringify(body) };
}

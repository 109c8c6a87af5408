import { describe, expect, it } from 'vitest';
import { assertJsonBody } from './content-type';

const accepts = (type: string, encoding?: string, transfer?: string) => () =>
  assertJsonBody(
    [type],
    encoding === undefined ? undefined : [encoding],
    transfer === undefined ? undefined : [transfer],
  );

describe('assertJsonBody', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON; Charset="UTF-8"',
    'application/json;charset=utf-8',
    'application/json; charset=utf-8; foo=bar',
    'application/json; a=1; b=2',
    'application/json;',
    'application/json; charset=utf-8;',
    'application/json;; charset=utf-8',
    'application/json; q="a;b"',
    ' \tapplication/json\t ',
    'application/json \t; charset=utf-8 ',
  ])('accepts %j', (type) => {
    expect(accepts(type)).not.toThrow();
  });

  it.each([
    'text/plain',
    'application/jsonx',
    'application/json-seq',
    'application/vnd.api+json',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset=utf-8; charset=utf-8',
    'application/json; charset',
    'application/json; =x',
    'application/json; a="unterminated',
    '',
    // Only spaces and tabs are whitespace in a field (RFC 9110 §5.6.3): not a Latin-1 no-break space.
    'application/json\u00a0',
    '\u00a0application/json',
    'application/json\u00a0; charset=utf-8',
  ])('refuses %j with 415 media_type_unsupported', (type) => {
    expect(accepts(type)).toThrow(
      expect.objectContaining({ status: 415, code: 'media_type_unsupported' }),
    );
  });

  it('refuses a missing or repeated Content-Type', () => {
    expect(() => assertJsonBody(undefined, undefined)).toThrow(
      expect.objectContaining({ status: 415 }),
    );
    expect(() => assertJsonBody(['application/json', 'application/json'], undefined)).toThrow(
      expect.objectContaining({ status: 415 }),
    );
  });

  it('refuses a compressed body, by Content-Encoding or by a transfer coding other than chunked', () => {
    const compressed: unknown = expect.objectContaining({
      status: 415,
      code: 'content_encoding_unsupported',
    });
    expect(accepts('application/json', 'gzip')).toThrow(compressed);
    expect(accepts('application/json', 'identity, br')).toThrow(compressed);
    expect(accepts('application/json', undefined, 'gzip, chunked')).toThrow(compressed);
    expect(accepts('application/json', 'identity', 'chunked')).not.toThrow();
  });
});

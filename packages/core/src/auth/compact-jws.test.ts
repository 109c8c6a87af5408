import { describe, expect, it } from 'vitest';
import { InvalidTokenError } from '../errors/bearer-errors';
import { assertCompactJws, MAX_TOKEN_LENGTH } from './compact-jws';

// {"alg":"HS256","typ":"JWT"} . {"sub":"1234567890"} . 32 bytes of signature (43 characters, 43 % 4 = 3)
const HEADER = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
const PAYLOAD = 'eyJzdWIiOiIxMjM0NTY3ODkwIn0';
const SIGNATURE = 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const VALID = `${HEADER}.${PAYLOAD}.${SIGNATURE}`;

function codeOf(token: string): string {
  try {
    assertCompactJws(token);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ status: 401 });
    return (error as InvalidTokenError).code;
  }
  return 'accepted';
}

describe('assertCompactJws', () => {
  it('accepts a well-formed compact JWS', () => {
    expect(codeOf(VALID)).toBe('accepted');
  });

  it('accepts segments of every legal length and canonical trailing character', () => {
    expect(codeOf('AAAA.AA.AAA')).toBe('accepted');
    expect(codeOf('AQ.Ag.AAE')).toBe('accepted');
    expect(codeOf('-_-_.Aw.AA8')).toBe('accepted');
  });

  it.each([
    ['padding in the signature', `${VALID}=`],
    ['padding in the payload', `${HEADER}.${PAYLOAD}=.${SIGNATURE}`],
    ['a space inside the signature', `${VALID.slice(0, -4)} ${VALID.slice(-4)}`],
    ['a newline inside the signature', `${VALID.slice(0, -4)}\n${VALID.slice(-4)}`],
    ['standard base64 characters', `${HEADER}.${PAYLOAD}.${SIGNATURE.replace('_', '/')}`],
    ['a plus sign', `${HEADER}.${PAYLOAD}.${SIGNATURE.replace('_', '+')}`],
    ['non-canonical trailing bits (length 4n+3)', `${VALID.slice(0, -1)}d`],
    ['non-canonical trailing bits (length 4n+2)', `${HEADER}.${PAYLOAD}.AB`],
    ['a 4n+1 segment', `${HEADER}.${PAYLOAD}.${SIGNATURE}AA`],
    ['a one-character segment', `${HEADER}.${PAYLOAD}.A`],
    ['an empty signature, as alg none has', `${HEADER}.${PAYLOAD}.`],
    ['an empty header', `.${PAYLOAD}.${SIGNATURE}`],
    ['an empty payload', `${HEADER}..${SIGNATURE}`],
    ['two segments', `${HEADER}.${PAYLOAD}`],
    ['four segments', `${VALID}.${SIGNATURE}`],
    ['five segments, as a JWE has', `${VALID}.${SIGNATURE}.${SIGNATURE}`],
    ['the empty string', ''],
    ['a non-ASCII character', `${VALID.slice(0, -1)}é`],
  ])('refuses %s with token_malformed', (_case, token) => {
    expect(codeOf(token)).toBe('token_malformed');
  });

  it('accepts a token of exactly 16 KiB and refuses 16 KiB + 1 with token_too_large', () => {
    const filler = (length: number) => 'A'.repeat(length);
    const exact = `${HEADER}.${filler(MAX_TOKEN_LENGTH - HEADER.length - SIGNATURE.length - 2)}.${SIGNATURE}`;
    expect(exact.length).toBe(16_384);
    expect(codeOf(exact)).toBe('accepted');
    expect(codeOf(`${exact}A`)).toBe('token_too_large');
  });

  it('describes the problem in a fixed text that fits a quoted challenge', () => {
    try {
      assertCompactJws(`${VALID}=`);
    } catch (error) {
      const challenge = (error as InvalidTokenError).headers['www-authenticate'];
      expect(challenge).toBe(
        'Bearer realm="plantstore", error="invalid_token", ' +
          'error_description="The token is not a compact JWS of three base64url segments"',
      );
    }
    expect.assertions(1);
  });

  it('checks a huge hostile input in linear time', () => {
    // Relative, not a wall-clock bound: on a busy machine both sizes slow down alike. Eight times
    // the length costs about eight times as much when linear, sixty-four times when quadratic.
    const cost = (length: number): number => {
      const input = `${'A'.repeat(length)}.=`;
      let best = Infinity;
      for (let round = 0; round < 5; round += 1) {
        const started = performance.now();
        for (let index = 0; index < 200; index += 1) codeOf(input);
        best = Math.min(best, performance.now() - started);
      }
      return best;
    };
    cost(1000);
    expect(cost(8000) / cost(1000)).toBeLessThan(24);
  });
});

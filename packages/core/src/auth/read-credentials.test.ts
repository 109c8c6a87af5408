import { describe, expect, it } from 'vitest';
import { readCredentials } from './read-credentials';
import {
  InvalidTokenError,
  MalformedAuthorizationError,
  MissingTokenError,
} from '../errors/bearer-errors';

const readBearerToken = (values: readonly string[] | undefined): string =>
  readCredentials(values, false).token;

function thrown(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('readCredentials did not throw');
}

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

function failure(values: readonly string[] | undefined): unknown {
  try {
    readBearerToken(values);
  } catch (error) {
    return error;
  }
  throw new Error('readBearerToken did not throw');
}

describe('readCredentials: Bearer', () => {
  it('returns the token of a well-formed Bearer header', () => {
    expect(readBearerToken([`Bearer ${TOKEN}`])).toBe(TOKEN);
  });

  it('reads the scheme name case-insensitively', () => {
    expect(readBearerToken([`bearer ${TOKEN}`])).toBe(TOKEN);
    expect(readBearerToken([`BEARER ${TOKEN}`])).toBe(TOKEN);
  });

  it('accepts several spaces after the scheme, trailing = padding and every b64token character', () => {
    expect(readBearerToken(['Bearer    aZ09-._~+/=='])).toBe('aZ09-._~+/==');
  });

  it('tolerates whitespace around the whole value, which is not part of a field value', () => {
    expect(readBearerToken([` \tBearer ${TOKEN}\t `])).toBe(TOKEN);
  });

  it.each([[undefined], [[]]])(
    'answers 401 without an error attribute when there is no header (%j)',
    (values) => {
      const error = failure(values);
      expect(error).toBeInstanceOf(MissingTokenError);
      expect(error).toMatchObject({ status: 401, code: 'token_missing', expose: true });
      expect((error as MissingTokenError).headers).toEqual({
        'www-authenticate': 'Bearer realm="plantstore"',
      });
    },
  );

  it.each(['Basic dXNlcjpwYXNz', 'DPoP abc', 'Bearerabc', '', '   ', `, ${TOKEN}`, '"Bearer" x'])(
    'answers 401 token_missing for an empty field or another scheme (%j): no bearer credentials were sent',
    (value) => {
      const error = failure([value]);
      expect(error).toBeInstanceOf(MissingTokenError);
      expect((error as MissingTokenError).headers['www-authenticate']).toBe(
        'Bearer realm="plantstore"',
      );
    },
  );

  it('answers 400 invalid_request authorization_repeated for a repeated header', () => {
    const error = failure([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
    expect(error).toBeInstanceOf(MalformedAuthorizationError);
    expect(error).toMatchObject({ status: 400, code: 'authorization_repeated' });
    expect((error as MalformedAuthorizationError).headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="invalid_request", ' +
        'error_description="The request must carry exactly one Authorization header"',
    );
  });

  it.each([
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['a tab instead of a space', `Bearer\t${TOKEN}`],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
    ['a comma', `Bearer ${TOKEN},Basic x`],
    ['a quote', 'Bearer ab"c'],
    ['a backslash', 'Bearer ab\\c'],
    ['padding first', 'Bearer =abc'],
    ['a character after padding', 'Bearer abc=d'],
    ['non-ASCII', 'Bearer abcé'],
    ['spaces only after the scheme', 'Bearer    '],
    ['a quoted token', `Bearer "${TOKEN}"`],
  ])('answers 401 invalid_token authorization_malformed for %s', (_case, value) => {
    const error = failure([value]);
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ status: 401, code: 'authorization_malformed', expose: true });
    const challenge = (error as InvalidTokenError).headers['www-authenticate'];
    expect(challenge).toMatch(
      /^Bearer realm="plantstore", error="invalid_token", error_description="[^"\\]+"$/,
    );
  });

  it('answers 400 authorization_repeated for a second Bearer credential joined by a comma, as Headers joins repeats', () => {
    for (const value of [`Bearer ${TOKEN}, Bearer ${TOKEN}`, `Bearer ${TOKEN} ,bearer\tx`]) {
      expect(failure([value])).toMatchObject({ status: 400, code: 'authorization_repeated' });
    }
    expect(failure([`Bearer ${TOKEN}, Basic x`])).toMatchObject({
      status: 401,
      code: 'authorization_malformed',
    });
  });

  it.each([
    ['another scheme first', `Basic dXNlcjpwYXNz, Bearer ${TOKEN}`],
    ['an empty field first', `, Bearer ${TOKEN}`],
    ['a DPoP credential second', `Basic dXNlcjpwYXNz,dpop ${TOKEN}`],
    ['Bearer alone second', 'Basic dXNlcjpwYXNz, Bearer'],
  ])(
    'answers 400 authorization_repeated for a Bearer credential joined after %s, as Headers joins the two fields',
    (_case, value) => {
      expect(failure([value])).toMatchObject({ status: 400, code: 'authorization_repeated' });
    },
  );

  it.each([
    `Digest realm="a, Bearer b", nonce="x"`,
    `Digest realm="a\\", Bearer b"`,
    `Basic dXNlcjpwYXNz, Bearerx`,
    `Digest username="a", bearer="b"`,
  ])(
    'answers 401 token_missing for another scheme whose comma starts no Bearer credential (%j)',
    (value) => {
      expect(failure([value])).toBeInstanceOf(MissingTokenError);
    },
  );

  it('never puts the token in the message', () => {
    const error = failure([`Bearer ${TOKEN} extra`]) as InvalidTokenError;
    expect(error.message).not.toContain(TOKEN);
    expect(error.headers['www-authenticate']).not.toContain(TOKEN);
  });
});

describe('readCredentials: DPoP', () => {
  it('reads the DPoP scheme, any case, only where the verifier accepts it', () => {
    expect(readCredentials([`DPoP ${TOKEN}`], true)).toStrictEqual({
      scheme: 'DPoP',
      token: TOKEN,
    });
    expect(readCredentials([`dpop ${TOKEN}`], true)).toStrictEqual({
      scheme: 'DPoP',
      token: TOKEN,
    });
    expect(readCredentials([`Bearer ${TOKEN}`], true)).toStrictEqual({
      scheme: 'Bearer',
      token: TOKEN,
    });
    expect(thrown(() => readCredentials([`DPoP ${TOKEN}`], false))).toMatchObject({
      status: 401,
      code: 'token_missing',
    });
  });

  it('refuses a DPoP credential that is not one token, and a second credential after a comma', () => {
    expect(thrown(() => readCredentials(['DPoP'], true))).toMatchObject({
      status: 401,
      code: 'authorization_malformed',
    });
    expect(thrown(() => readCredentials([`DPoP ${TOKEN} x`], true))).toMatchObject({
      status: 401,
      code: 'authorization_malformed',
    });
    expect(thrown(() => readCredentials([`DPoP ${TOKEN}, Bearer ${TOKEN}`], true))).toMatchObject({
      status: 400,
      code: 'authorization_repeated',
    });
    expect(thrown(() => readCredentials([`Bearer ${TOKEN}, DPoP ${TOKEN}`], true))).toMatchObject({
      status: 400,
      code: 'authorization_repeated',
    });
  });
});

import { inspect } from 'node:util';
import { SignJWT } from 'jose';
import type { JWTPayload } from 'jose';
import { describe, expect, it } from 'vitest';
import type { AuthRequest } from '../authenticator';
import { jwtBearer } from './jwt-bearer';
import type { JwtBearerOptions } from './jwt-bearer';

const request: AuthRequest = { method: 'POST', path: '/plants', headers: () => undefined };
const SECRET = 'a-shared-secret-of-32-bytes-long';
const key = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);
const base = { secret: SECRET, issuer: 'urn:issuer', audience: 'urn:api' } as const;
const claims = { iss: 'urn:issuer', aud: 'urn:api', sub: 'alice' };

/** An HS256 token with a chosen `typ` (none when undefined) and claims of any type. */
async function token(extra: Record<string, unknown> = {}, typ?: string): Promise<string> {
  const payload: JWTPayload = { iat: now(), exp: now() + 3600, ...claims, ...extra };
  const header = typ === undefined ? { alg: 'HS256' } : { alg: 'HS256', typ };
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}

async function refusal(options: JwtBearerOptions, jwt: string): Promise<Record<string, unknown>> {
  return jwtBearer(options)
    .verify(jwt, request)
    .then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => error as Record<string, unknown>,
    );
}

describe('jwtBearer token types (RFC 8725 §3.11, RFC 9068 §4)', () => {
  it('accepts at+jwt, JWT or no typ by default, and refuses any other type', async () => {
    const auth = jwtBearer(base);
    for (const typ of ['at+jwt', 'application/at+jwt', 'JWT', 'jwt', undefined]) {
      await expect(auth.verify(await token({}, typ), request)).resolves.toMatchObject({
        subject: 'alice',
      });
    }
    for (const typ of ['dpop+jwt', 'logout+jwt', 'secevent+jwt', 'id_token+jwt', 'at+jwt+x']) {
      expect(await refusal(base, await token({}, typ))).toMatchObject({
        status: 401,
        code: 'token_type_mismatch',
      });
    }
  });

  it("with typ 'at+jwt', accepts it in any case and with application/, refuses JWT and no typ", async () => {
    const options = { ...base, typ: 'at+jwt' };
    const auth = jwtBearer(options);
    for (const typ of ['at+jwt', 'AT+JWT', 'application/at+jwt', 'Application/At+Jwt']) {
      await auth.verify(await token({}, typ), request);
    }
    for (const typ of ['JWT', undefined, 'application/jwt', 'at+jwt; x']) {
      const error = await refusal(options, await token({}, typ));
      expect(error).toMatchObject({ code: 'token_type_mismatch' });
      expect((error['headers'] as Record<string, string>)['www-authenticate']).toBe(
        'Bearer realm="plantstore", error="invalid_token", error_description="The token is not an access token of an accepted type"',
      );
    }
  });

  it('takes a list of types, so an ID token typed JWT is refused where only at+jwt is wanted', async () => {
    const options = { ...base, typ: ['at+jwt', 'application/vnd.example+jwt'] };
    await jwtBearer(options).verify(await token({}, 'vnd.example+jwt'), request);
    expect(await refusal(options, await token({ nonce: 'n' }, 'JWT'))).toMatchObject({
      code: 'token_type_mismatch',
    });
  });

  it("with profile 'rfc9068', requires at+jwt and iss, exp, aud, sub, client_id, iat, jti", async () => {
    const options = { ...base, profile: 'rfc9068' } as const;
    const full = { client_id: 'c1', jti: 'j1' };
    await jwtBearer(options).verify(await token(full, 'at+jwt'), request);
    expect(await refusal(options, await token(full, 'JWT'))).toMatchObject({
      code: 'token_type_mismatch',
    });
    for (const claim of ['client_id', 'jti', 'sub', 'iat']) {
      const missing = await token({ ...full, [claim]: undefined }, 'at+jwt');
      expect(await refusal(options, missing)).toMatchObject({ code: 'claim_missing' });
    }
  });

  it("with profile 'rfc9068', refuses an ID token (no typ, no client_id, no jti) as token_type_mismatch", async () => {
    expect(
      await refusal({ ...base, profile: 'rfc9068' }, await token({ nonce: 'n' })),
    ).toMatchObject({
      code: 'token_type_mismatch',
    });
  });

  it('fails at start-up for a bad typ, an unknown profile, typ with profile, or profile without audience', () => {
    expect(() => jwtBearer({ ...base, typ: [] })).toThrow(/option "typ"/);
    expect(() => jwtBearer({ ...base, typ: 'a b' })).toThrow(/option "typ"/);
    expect(() => jwtBearer({ ...base, profile: 'rfc7519' as never })).toThrow(/option "profile"/);
    expect(() => jwtBearer({ ...base, profile: 'rfc9068', typ: 'at+jwt' })).toThrow(/option "typ"/);
    // @ts-expect-error -- the types refuse the profile without an audience too; a JavaScript caller is told here.
    expect(() => jwtBearer({ secret: SECRET, issuer: 'i', profile: 'rfc9068' })).toThrow(
      /option "audience" is required \(or "clients", where tokens name no aud\) with profile/,
    );
  });
});

describe('jwtBearer scope claims', () => {
  it('refuses a scope claim given as a JSON array: scope is one space-delimited string', async () => {
    const error = await refusal(base, await token({ scope: ['plants:write'] }));
    expect(error).toMatchObject({ status: 401, code: 'claim_invalid' });
  });

  it('reads Auth0 permissions and Entra ID roles as lists when configured', async () => {
    const auth0 = { ...base, scopeClaims: ['permissions'], requiredScopes: ['plants:write'] };
    const principal = await jwtBearer(auth0).verify(
      await token({ permissions: ['plants:write', 'plants:read'], scope: 'openid' }),
      request,
    );
    expect(principal.scopes).toStrictEqual(['plants:write', 'plants:read']);
    const entra = { ...base, scopeClaims: ['roles'], requiredScopes: ['Plants.Write'] };
    await jwtBearer(entra).verify(await token({ roles: ['Plants.Write'] }), request);
    expect(await refusal(entra, await token({ scope: 'Plants.Write' }))).toMatchObject({
      status: 403,
      code: 'scope_insufficient',
    });
    expect(await refusal(entra, await token({ roles: [1] }))).toMatchObject({
      code: 'claim_invalid',
    });
  });
});

describe('jwtBearer principals', () => {
  it.each([
    ['U+0000', 'ali\u0000ce'],
    ['a lone surrogate', 'ali\ud800ce'],
  ])(
    'refuses a sub holding %s as an invalid token: the store could not keep it',
    async (_c, sub) => {
      expect(await refusal(base, await token({ sub }))).toMatchObject({
        status: 401,
        code: 'claim_invalid',
      });
    },
  );

  it('hands out a deeply frozen principal, the same for every request with the token', async () => {
    const auth = jwtBearer(base);
    const jwt = await token({ scope: 'a b', profile: { email: 'alice@example.com' } });
    const first = await auth.verify(jwt, request);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.scopes)).toBe(true);
    expect(Object.isFrozen(first.claims)).toBe(true);
    expect(Object.isFrozen(first.claims['profile'])).toBe(true);
    expect(() => (first.scopes as string[]).push('admin')).toThrow(TypeError);
    const second = await auth.verify(jwt, request);
    expect(second.scopes).toStrictEqual(['a', 'b']);
  });

  it("keeps jose's error as the cause without the token's claims", async () => {
    const error = await refusal(
      base,
      await token({ exp: now() - 60, email: 'alice@example.com', scope: 'secret-scope' }),
    );
    expect(error).toMatchObject({ code: 'token_expired' });
    const logged = inspect(error, { depth: 10 });
    expect(logged).toContain('ERR_JWT_EXPIRED');
    expect(logged).not.toContain('alice@example.com');
    expect(logged).not.toContain('secret-scope');
  });
});

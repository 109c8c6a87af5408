import { base64url, CompactSign, decodeProtectedHeader, SignJWT } from 'jose';
import type { JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuthRequest } from '../authenticator';
import { InsufficientScopeError, InvalidTokenError } from '../../errors/bearer-errors';
import { ServiceUnavailableError } from '../../errors/server-errors';
import { jwtBearer } from './jwt-bearer';
import type {
  JwtBearerIssuerFields,
  JwtBearerIssuerOptions,
  JwtBearerOptionFields,
  JwtBearerOptions,
} from './jwt-bearer';
import { createTokenIssuer } from '../../testing/token-issuer';
import type { TokenIssuer } from '../../testing/token-issuer';

const request: AuthRequest = { method: 'POST', path: '/plants', headers: () => undefined };
const LEGACY_SECRET = 'the-legacy-issuer-shared-secret!!';
const legacyKey = new TextEncoder().encode(LEGACY_SECRET);
const seconds = () => Math.floor(Date.now() / 1000);

/** An HS256 token, as the legacy issuer (or an attacker holding its secret) makes one. */
function hs256(claims: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ iat: seconds(), exp: seconds() + 3600, ...claims })
    .setProtectedHeader({ ...header, alg: 'HS256' })
    .sign(legacyKey);
}

async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Record<string, unknown>,
  );
}

describe('jwtBearer with several issuers', () => {
  // Two providers with a JWKS each (an Auth0 tenant, an Entra ID tenant) and an internal HS256 issuer.
  let auth0: TokenIssuer;
  let entra: TokenIssuer;
  const legacy = { issuer: 'legacy', audience: 'plants' };

  // An entry with options changed, checked or not: some cases break its rules on purpose.
  type Extra = Partial<JwtBearerIssuerFields>;
  const entries = (
    extra: { auth0?: Extra; entra?: Extra } = {},
  ): readonly JwtBearerIssuerOptions[] =>
    [
      { issuer: auth0.issuer, jwksUri: auth0.jwksUri, audience: auth0.audience, ...extra.auth0 },
      {
        issuer: entra.issuer,
        jwksUri: entra.jwksUri,
        audience: entra.audience,
        scopeClaims: ['roles'],
        ...extra.entra,
      },
      { issuer: legacy.issuer, secret: LEGACY_SECRET, audience: legacy.audience },
    ] as readonly JwtBearerIssuerOptions[];
  const several = (extra: Partial<JwtBearerOptionFields> = {}) =>
    jwtBearer({
      issuers: entries(),
      requiredScopes: ['plants:write'],
      ...extra,
    } as JwtBearerOptions);
  const fetches = () => ({ auth0: auth0.requests, entra: entra.requests });

  beforeAll(async () => {
    [auth0, entra] = await Promise.all([
      createTokenIssuer({
        issuer: 'https://tenant-a.eu.auth0.test/',
        audience: 'https://api.test',
      }),
      createTokenIssuer({
        algorithm: 'RS256',
        issuer: 'https://login.entra.test/tid/v2.0',
        audience: 'api://plants',
      }),
    ]);
  });
  afterEach(() => {
    auth0.outage('none');
    entra.outage('none');
  });
  afterAll(async () => {
    await Promise.all([auth0.close(), entra.close()]);
  });

  describe('tokens of each issuer', () => {
    it('accepts a token of every issuer, each read with its own scope claims', async () => {
      const auth = several();
      const fromAuth0 = await auth.verify(await auth0.sign({ scope: 'plants:write' }), request);
      expect(fromAuth0).toMatchObject({ subject: 'test-user', scopes: ['plants:write'] });
      expect(fromAuth0.claims.iss).toBe(auth0.issuer);
      const fromEntra = await auth.verify(
        await entra.sign({ sub: 'app-1', roles: ['plants:write', 'Plants.Read'] }),
        request,
      );
      expect(fromEntra).toMatchObject({
        subject: 'app-1',
        scopes: ['plants:write', 'Plants.Read'],
      });
      const fromLegacy = await auth.verify(
        await hs256({ iss: 'legacy', aud: 'plants', sub: 'billing', scope: 'plants:write' }),
        request,
      );
      expect(fromLegacy).toMatchObject({ subject: 'billing', scopes: ['plants:write'] });
    });

    it("reads scopes only from the claims of the token's own issuer", async () => {
      const auth = several();
      // Entra ID's entry reads roles only: a scope claim grants nothing there.
      const entraScope = await rejection(
        auth.verify(await entra.sign({ scope: 'plants:write' }), request),
      );
      expect(entraScope).toBeInstanceOf(InsufficientScopeError);
      expect(entraScope).toMatchObject({ status: 403, code: 'scope_insufficient' });
      // Auth0's entry reads scope and scp: roles grant nothing there.
      const auth0Roles = await rejection(
        auth.verify(await auth0.sign({ roles: ['plants:write'] }), request),
      );
      expect(auth0Roles).toMatchObject({ status: 403, code: 'scope_insufficient' });
    });

    it("checks each issuer's audience: a token of one issuer for another's audience is refused", async () => {
      const auth = several();
      const error = await rejection(
        auth.verify(await auth0.sign({ scope: 'plants:write', aud: entra.audience }), request),
      );
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error).toMatchObject({ status: 401, code: 'audience_mismatch' });
      await expect(
        auth.verify(
          await hs256({ iss: 'legacy', aud: auth0.audience, scope: 'plants:write' }),
          request,
        ),
      ).rejects.toMatchObject({ code: 'audience_mismatch' });
    });

    it('lets an issuer replace the shared typ, profile and requiredClaims', async () => {
      // Every provider issues RFC 9068 tokens but the legacy one, which types its tokens JWT and
      // carries neither jti nor client_id: a migration.
      const entriesOf = entries();
      const auth = jwtBearer({
        profile: 'rfc9068',
        issuers: [
          entriesOf[0] as JwtBearerIssuerOptions,
          { ...legacy, secret: LEGACY_SECRET, typ: 'JWT', requiredClaims: ['sub'] },
        ],
      });
      await auth.verify(await auth0.sign(), request);
      const plain = await hs256({ iss: 'legacy', aud: 'plants', sub: 'billing' }, { typ: 'JWT' });
      expect((await auth.verify(plain, request)).subject).toBe('billing');
      await expect(
        auth.verify(await hs256({ iss: 'legacy', aud: 'plants' }, { typ: 'JWT' }), request),
      ).rejects.toMatchObject({ code: 'claim_missing' });
      // The shared profile still holds for Auth0: a token typed JWT is not an RFC 9068 access token.
      await expect(
        auth.verify(await auth0.sign({}, { header: { typ: 'JWT' } }), request),
      ).rejects.toMatchObject({ code: 'token_type_mismatch' });
    });

    it('fetches every JWKS on ready(), and rejects with 503 if one cannot be fetched', async () => {
      const before = fetches();
      await several().ready();
      expect(fetches()).toEqual({ auth0: before.auth0 + 1, entra: before.entra + 1 });
      entra.outage('down');
      await expect(several().ready()).rejects.toMatchObject({
        status: 503,
        code: 'jwks_unavailable',
      });
    });
  });

  describe('a key of one issuer never verifies a token naming another (RFC 8725 §3.8)', () => {
    it("refuses a token naming Auth0 signed by Entra ID's key, with or without its kid", async () => {
      const auth = several();
      await auth.ready();
      const claims = { iss: auth0.issuer, aud: auth0.audience, scope: 'plants:write' };
      const entraBefore = entra.requests;
      // Entra's kid is not in Auth0's key set (issued before its fetch: no refetch is due).
      await expect(
        auth.verify(await entra.sign(claims, { issuedAt: -60 }), request),
      ).rejects.toMatchObject({
        status: 401,
        code: 'key_not_found',
      });
      // Without a kid, or with Auth0's own kid, only Auth0's keys are tried: the signature fails.
      await expect(
        auth.verify(await entra.sign(claims, { header: { kid: undefined } }), request),
      ).rejects.toMatchObject({ code: 'signature_invalid' });
      const auth0Kid = decodeProtectedHeader(await auth0.sign()).kid;
      await expect(
        auth.verify(await entra.sign(claims, { header: { kid: auth0Kid } }), request),
      ).rejects.toMatchObject({ code: 'signature_invalid' });
      // Entra's key set was never asked about a token that names Auth0.
      expect(entra.requests).toBe(entraBefore);
    });

    it("refuses an HS256 token naming Auth0 signed with the legacy issuer's secret (algorithm confusion)", async () => {
      const auth = several();
      const forged = await hs256({ iss: auth0.issuer, aud: auth0.audience, scope: 'plants:write' });
      const error = await rejection(auth.verify(forged, request));
      expect(error).toMatchObject({ status: 401, code: 'algorithm_not_allowed' });
      // And the other way: an RS256 token of Auth0 naming the legacy issuer.
      const other = await auth0.sign({ iss: 'legacy', aud: 'plants', scope: 'plants:write' });
      await expect(auth.verify(other, request)).rejects.toMatchObject({
        code: 'algorithm_not_allowed',
      });
    });
  });

  describe('selection by iss', () => {
    const refusedWithoutFetch = async (token: string) => {
      const auth = several();
      const before = fetches();
      const error = await rejection(auth.verify(token, request));
      expect(error).toBeInstanceOf(InvalidTokenError);
      expect(error).toMatchObject({ status: 401, code: 'issuer_mismatch' });
      expect(error['headers']).toEqual({
        'www-authenticate':
          'Bearer realm="plantstore", error="invalid_token", error_description="The token names no accepted issuer"',
      });
      expect(fetches()).toEqual(before);
    };

    it('refuses an unknown issuer with 401 issuer_mismatch, fetching no key set', async () => {
      const stranger = await createTokenIssuer({ audience: auth0.audience });
      try {
        await refusedWithoutFetch(await stranger.sign({ scope: 'plants:write' }));
        expect(stranger.requests).toBe(0);
      } finally {
        await stranger.close();
      }
    });

    it('compares iss exactly: no trailing-slash, case or prototype tricks', async () => {
      for (const iss of [
        auth0.issuer.slice(0, -1),
        auth0.issuer.toUpperCase(),
        `${auth0.issuer} `,
        '__proto__',
        'constructor',
        'toString',
      ]) {
        await refusedWithoutFetch(await auth0.sign({ iss }));
      }
    });

    it('refuses a token without iss or with an iss that is not a string', async () => {
      for (const iss of [undefined, 42, null, [auth0.issuer], { url: auth0.issuer }, true]) {
        await refusedWithoutFetch(await auth0.sign({ iss }));
      }
    });

    it('refuses a token whose payload is not a JSON object with token_malformed, fetching nothing', async () => {
      const header = base64url.encode(JSON.stringify({ alg: 'RS256', typ: 'at+jwt' }));
      for (const payload of ['not json', '[1]', '"a"', 'null']) {
        const token = `${header}.${base64url.encode(payload)}.${base64url.encode('signature')}`;
        const before = fetches();
        await expect(several().verify(token, request)).rejects.toMatchObject({
          status: 401,
          code: 'token_malformed',
        });
        expect(fetches()).toEqual(before);
      }
      const signed = await new CompactSign(new TextEncoder().encode('[1]'))
        .setProtectedHeader({ alg: 'HS256' })
        .sign(legacyKey);
      await expect(several().verify(signed, request)).rejects.toMatchObject({
        code: 'token_malformed',
      });
    });

    it('still refuses a malformed token before reading its iss', async () => {
      await expect(several().verify('a.b.c=', request)).rejects.toMatchObject({
        code: 'token_malformed',
      });
    });
  });

  describe('each key set on its own', () => {
    it("answers Entra ID's tokens 503 while its JWKS is down, and Auth0's 200", async () => {
      const auth = jwtBearer({
        issuers: entries({ entra: { jwks: { retryAfter: 7 } } }),
        requiredScopes: ['plants:write'],
      });
      entra.outage('down');
      const error = await rejection(
        auth.verify(await entra.sign({ roles: ['plants:write'] }), request),
      );
      expect(error).toBeInstanceOf(ServiceUnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'jwks_unavailable' });
      // The time until its next fetch (1 s after the first failure), within its cap of 7.
      expect(error['headers']).toEqual({ 'retry-after': '1' });
      const principal = await auth.verify(await auth0.sign({ scope: 'plants:write' }), request);
      expect(principal.claims.iss).toBe(auth0.issuer);
      await expect(
        auth.verify(await hs256({ iss: 'legacy', aud: 'plants', scope: 'plants:write' }), request),
      ).resolves.toMatchObject({ scopes: ['plants:write'] });
    });

    it("keeps each issuer's back-off to itself", async () => {
      let clock = Date.now();
      const auth = several({ now: () => clock });
      const entraToken = await entra.sign({ roles: ['plants:write'] });
      const auth0Token = await auth0.sign({ scope: 'plants:write' });
      entra.outage('down');
      const before = fetches();
      await expect(auth.verify(entraToken, request)).rejects.toMatchObject({ status: 503 });
      expect(fetches()).toEqual({ auth0: before.auth0, entra: before.entra + 1 });
      // Entra ID's back-off (1 s after its first failure) holds its next fetch...
      clock += 500;
      await expect(auth.verify(entraToken, request)).rejects.toMatchObject({ status: 503 });
      expect(entra.requests).toBe(before.entra + 1);
      // ...but not Auth0's first fetch, which goes out at once.
      await auth.verify(auth0Token, request);
      expect(fetches()).toEqual({ auth0: before.auth0 + 1, entra: before.entra + 1 });
      // Entra ID back: its next fetch once its own back-off has passed; Auth0's keys are not refetched.
      entra.outage('none');
      clock += 600;
      await auth.verify(entraToken, request);
      expect(fetches()).toEqual({ auth0: before.auth0 + 1, entra: before.entra + 2 });
      // Auth0 down now: its keys are held and still serve; Entra ID's are untouched.
      auth0.outage('down');
      await auth.verify(await auth0.sign({ scope: 'plants:write', jti: 'another' }), request);
      expect(fetches()).toEqual({ auth0: before.auth0 + 1, entra: before.entra + 2 });
    });

    it("never answers from the cache a token whose issuer's key set changed since", async () => {
      // Auth0 last: its key set's changes must count although another issuer's comes first.
      const auth = jwtBearer({
        issuers: [...entries({ auth0: { jwks: { cooldownMs: 0 } } })].reverse(),
      });
      const old = await auth0.sign();
      const entraToken = await entra.sign();
      await auth.verify(old, request);
      await auth.verify(entraToken, request);
      await auth0.rotate();
      await auth0.rotate(); // the key of `old` is no longer published
      await auth.verify(await auth0.sign(), request); // an unknown kid: Auth0's key set is fetched anew
      await expect(auth.verify(old, request)).rejects.toMatchObject({ code: 'key_not_found' });
      // Entra ID's token still passes: its keys did not change.
      await expect(auth.verify(entraToken, request)).resolves.toMatchObject({
        subject: 'test-user',
      });
    });
  });
});

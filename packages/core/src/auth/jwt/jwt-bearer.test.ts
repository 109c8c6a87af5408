import { generateKeyPairSync } from 'node:crypto';
import { base64url, CompactSign, exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthRequest } from '../authenticator';
import { InsufficientScopeError, InvalidTokenError } from '../../errors/bearer-errors';
import { ServiceUnavailableError } from '../../errors/server-errors';
import { jwtBearer } from './jwt-bearer';
import type { JwtBearerOptionFields, JwtBearerOptions } from './jwt-bearer';
import { createTokenIssuer } from '../../testing/token-issuer';
import type { TokenIssuer } from '../../testing/token-issuer';

const request: AuthRequest = { method: 'POST', path: '/plants', headers: () => undefined };
const SECRET = 'a-shared-secret-of-32-bytes-long';
const secretBytes = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);

/** Signs with the shared secret; test claims may be of any type, as a hostile token's are. */
async function hs256(
  claims: Record<string, unknown>,
  alg = 'HS256',
  key: Uint8Array = secretBytes,
): Promise<string> {
  const payload: JWTPayload = { iat: now(), exp: now() + 3600, ...claims };
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(key);
}

async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error as Record<string, unknown>,
  );
}

/** The stable code a token is refused with. */
async function codeOf(options: JwtBearerOptions, token: string): Promise<unknown> {
  return (await rejection(jwtBearer(options).verify(token, request)))['code'];
}

describe('jwtBearer with a shared secret', () => {
  const auth = jwtBearer({ secret: SECRET, issuer: 'urn:issuer', audience: 'urn:api' });
  const claims = { iss: 'urn:issuer', aud: 'urn:api', sub: 'alice' };

  it('resolves the principal of a valid token', async () => {
    const token = await hs256({ ...claims, scope: 'plants:read plants:write', tenant: 't1' });
    const principal = await auth.verify(token, request);
    expect(principal.subject).toBe('alice');
    expect(principal.scopes).toEqual(['plants:read', 'plants:write']);
    expect(principal.claims).toMatchObject({ tenant: 't1', iss: 'urn:issuer' });
  });

  it('refuses an expired token with 401 token_expired and a fixed description', async () => {
    const error = await rejection(
      auth.verify(await hs256({ ...claims, exp: now() - 60 }), request),
    );
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ status: 401, code: 'token_expired' });
    expect(error['headers']).toEqual({
      'www-authenticate':
        'Bearer realm="plantstore", error="invalid_token", error_description="The token has expired"',
    });
    expect((error['cause'] as { code?: unknown }).code).toBe('ERR_JWT_EXPIRED');
  });

  it('allows 5 s of clock skew on exp and nbf by default', async () => {
    await auth.verify(await hs256({ ...claims, exp: now() - 3 }), request);
    await auth.verify(await hs256({ ...claims, nbf: now() + 3 }), request);
  });

  it('refuses a token whose nbf is in the future with token_not_yet_valid', async () => {
    const token = await hs256({ ...claims, nbf: now() + 60 });
    expect(await codeOf({ secret: SECRET }, token)).toBe('token_not_yet_valid');
  });

  it('refuses another issuer, another audience and a missing issuer', async () => {
    const options = { secret: SECRET, issuer: 'urn:issuer', audience: ['urn:api', 'urn:x'] };
    expect(await codeOf(options, await hs256({ ...claims, iss: 'urn:evil' }))).toBe(
      'issuer_mismatch',
    );
    expect(await codeOf(options, await hs256({ ...claims, aud: 'urn:other' }))).toBe(
      'audience_mismatch',
    );
    expect(await codeOf(options, await hs256({ aud: 'urn:x' }))).toBe('claim_missing');
  });

  it('refuses a tampered payload and a tampered signature with signature_invalid', async () => {
    const [header, payload, signature] = (await hs256(claims)).split('.') as [
      string,
      string,
      string,
    ];
    const forged = base64url.encode(JSON.stringify({ ...claims, sub: 'admin', exp: now() + 60 }));
    expect(await codeOf({ secret: SECRET }, `${header}.${forged}.${signature}`)).toBe(
      'signature_invalid',
    );
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect(await codeOf({ secret: SECRET }, `${header}.${payload}.${flipped}`)).toBe(
      'signature_invalid',
    );
  });

  it('refuses alg none, with or without a signature segment', async () => {
    const header = base64url.encode('{"alg":"none"}');
    const payload = base64url.encode(JSON.stringify(claims));
    expect(await codeOf({ secret: SECRET }, `${header}.${payload}.`)).toBe('token_malformed');
    expect(await codeOf({ secret: SECRET }, `${header}.${payload}.AAAA`)).toBe(
      'algorithm_not_allowed',
    );
  });

  it('refuses HS512 for a secret shorter than 64 bytes, as RFC 7518 requires', async () => {
    expect(await codeOf({ secret: SECRET }, await hs256(claims, 'HS512'))).toBe(
      'algorithm_not_allowed',
    );
    const long = 'x'.repeat(64);
    const token = await hs256(claims, 'HS512', new TextEncoder().encode(long));
    await jwtBearer({ secret: long }).verify(token, request);
  });

  it('refuses a signed token whose payload is not a JSON object with token_malformed', async () => {
    const token = await new CompactSign(new TextEncoder().encode('[1]'))
      .setProtectedHeader({ alg: 'HS256' })
      .sign(secretBytes);
    expect(await codeOf({ secret: SECRET }, token)).toBe('token_malformed');
  });

  it('applies maxTokenAge to iat', async () => {
    const options = { secret: SECRET, maxTokenAge: '1 hour' };
    expect(await codeOf(options, await hs256({ iat: now() - 7200 }))).toBe('token_too_old');
    expect(await codeOf(options, await hs256({ iat: undefined }))).toBe('claim_missing');
    expect(await codeOf(options, await hs256({ iat: now() + 600 }))).toBe('claim_invalid');
    await jwtBearer({ ...options, maxTokenAge: 7300 }).verify(
      await hs256({ iat: now() - 7200 }),
      request,
    );
  });

  it('requires the requiredClaims', async () => {
    const options = { secret: SECRET, requiredClaims: ['jti'] };
    expect(await codeOf(options, await hs256(claims))).toBe('claim_missing');
    await jwtBearer(options).verify(await hs256({ jti: 'j1' }), request);
  });

  it('reads scopes from scope, from scp as a list and from scp as a string', async () => {
    const scoped = jwtBearer({ secret: SECRET, requiredScopes: ['plants:write'] });
    await scoped.verify(await hs256({ scope: 'plants:write other' }), request);
    const fromList = await scoped.verify(await hs256({ scp: ['plants:write', 'x'] }), request);
    expect(fromList.scopes).toEqual(['plants:write', 'x']);
    await scoped.verify(await hs256({ scp: 'x plants:write' }), request);
    expect(await codeOf({ secret: SECRET }, await hs256({ scope: 42 }))).toBe('claim_invalid');
    expect(await codeOf({ secret: SECRET }, await hs256({ sub: 7 }))).toBe('claim_invalid');
  });

  it('answers 403 insufficient_scope naming every required scope when one is missing', async () => {
    const scoped = jwtBearer({ secret: SECRET, requiredScopes: ['plants:write', 'plants:read'] });
    const error = await rejection(scoped.verify(await hs256({ scope: 'plants:write' }), request));
    expect(error).toBeInstanceOf(InsufficientScopeError);
    expect(error).toMatchObject({ status: 403, code: 'scope_insufficient' });
    expect((error['headers'] as Record<string, string>)['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", ' +
        'error_description="The token lacks a required scope", scope="plants:write plants:read"',
    );
  });

  it('follows an injected clock', async () => {
    const token = await hs256({ exp: now() + 60 });
    const later = jwtBearer({ secret: SECRET, now: () => Date.now() + 3_600_000 });
    expect((await rejection(later.verify(token, request)))['code']).toBe('token_expired');
  });

  it('refuses a malformed token before jose sees it, and readies and closes at once', async () => {
    expect(await codeOf({ secret: SECRET }, 'not.a.jwt!')).toBe('token_malformed');
    await expect(auth.ready()).resolves.toBeUndefined();
    await expect(auth.close()).resolves.toBeUndefined();
  });
});

describe('jwtBearer with a public key', () => {
  let rsa: { privateKey: CryptoKey; publicKey: CryptoKey; pem: string };
  let ec: { privateKey: CryptoKey; publicKey: CryptoKey };
  const sign = (key: CryptoKey, alg: string, claims: JWTPayload = { sub: 'bob' }) =>
    new SignJWT(claims).setProtectedHeader({ alg }).setExpirationTime('1h').sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    rsa = { ...pair, pem: await exportSPKI(pair.publicKey) };
    ec = await generateKeyPair('ES256', { extractable: true });
  });

  it('verifies an RS256 token against a PEM key', async () => {
    const auth = jwtBearer({ publicKey: rsa.pem });
    expect((await auth.verify(await sign(rsa.privateKey, 'RS256'), request)).subject).toBe('bob');
  });

  it('refuses an HS256 token signed with the PEM text as HMAC secret (algorithm confusion)', async () => {
    const token = await hs256({ sub: 'mallory' }, 'HS256', new TextEncoder().encode(rsa.pem));
    expect(await codeOf({ publicKey: rsa.pem }, token)).toBe('algorithm_not_allowed');
  });

  it('verifies against a JWK, a KeyObject and a CryptoKey', async () => {
    const token = await sign(ec.privateKey, 'ES256');
    const jwk = await exportJWK(ec.publicKey);
    expect((await jwtBearer({ publicKey: jwk }).verify(token, request)).subject).toBe('bob');
    expect((await jwtBearer({ publicKey: ec.publicKey }).verify(token, request)).subject).toBe(
      'bob',
    );
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const signed = await new SignJWT({ sub: 'carol' })
      .setProtectedHeader({ alg: 'EdDSA' })
      .sign(privateKey);
    expect((await jwtBearer({ publicKey }).verify(signed, request)).subject).toBe('carol');
  });

  it('honours the alg a JWK names', async () => {
    const jwk = { ...(await exportJWK(rsa.publicKey)), alg: 'PS256' };
    expect(await codeOf({ publicKey: jwk }, await sign(rsa.privateKey, 'RS256'))).toBe(
      'algorithm_not_allowed',
    );
    const pss = await generateKeyPair('PS256', { extractable: true });
    const pssJwk = { ...(await exportJWK(pss.publicKey)), alg: 'PS256' };
    const principal = await jwtBearer({ publicKey: pssJwk }).verify(
      await sign(pss.privateKey, 'PS256'),
      request,
    );
    expect(principal.subject).toBe('bob');
  });

  it('refuses a token signed by another key with signature_invalid', async () => {
    const other = await generateKeyPair('ES256');
    expect(await codeOf({ publicKey: ec.publicKey }, await sign(other.privateKey, 'ES256'))).toBe(
      'signature_invalid',
    );
  });
});

describe('jwtBearer with a JWKS', () => {
  let issuer: TokenIssuer;
  // The JWKS form with one option changed, checked or not: some cases break its rules on purpose.
  const options = (extra: Partial<JwtBearerOptionFields> = {}): JwtBearerOptions =>
    ({
      jwksUri: issuer.jwksUri,
      issuer: issuer.issuer,
      audience: issuer.audience,
      ...extra,
    }) as JwtBearerOptions;

  beforeAll(async () => {
    issuer = await createTokenIssuer();
  });
  afterAll(() => issuer.close());

  it('verifies a token of the issuer and fetches the JWKS once, on ready()', async () => {
    issuer.outage('none');
    const auth = jwtBearer(options());
    const before = issuer.requests;
    await auth.ready();
    const principal = await auth.verify(await issuer.sign({ scope: 'a b' }), request);
    expect(principal).toMatchObject({ subject: 'test-user', scopes: ['a', 'b'] });
    expect(issuer.requests).toBe(before + 1);
  });

  it('answers key_not_found for an unknown kid, refetching only as the key set allows', async () => {
    const auth = jwtBearer(options({ jwks: { cooldownMs: 60_000 } }));
    await auth.ready();
    const before = issuer.requests;
    // Issued before the key set was fetched: the keys held are newer, so no fetch within the cool-down.
    const old = await issuer.sign({}, { key: 'unpublished', issuedAt: -60 });
    const first = await rejection(auth.verify(old, request));
    expect(first).toMatchObject({ status: 401, code: 'key_not_found' });
    expect(issuer.requests).toBe(before);
    // Issued since: its key may be brand new, so it is looked for once more.
    const fresh = await issuer.sign({}, { key: 'unpublished', issuedAt: 10 });
    await expect(auth.verify(fresh, request)).rejects.toMatchObject({ code: 'key_not_found' });
    expect(issuer.requests).toBe(before + 1);
  });

  it('verifies tokens of the new key after a rotation, and of the previous key still', async () => {
    const auth = jwtBearer(options({ jwks: { cooldownMs: 0 } }));
    await auth.ready();
    await issuer.rotate();
    await auth.verify(await issuer.sign(), request);
    await auth.verify(await issuer.sign({}, { key: 'previous' }), request);
    // Without a kid, both published keys match: each is tried in turn.
    await auth.verify(
      await issuer.sign({}, { header: { kid: undefined }, key: 'previous' }),
      request,
    );
  });

  it('refuses an HS256 token when the JWKS is the key source', async () => {
    const token = await hs256({ iss: issuer.issuer, aud: issuer.audience });
    expect(await codeOf(options(), token)).toBe('algorithm_not_allowed');
  });

  it('answers 503 jwks_unavailable with Retry-After when the JWKS is down from the start', async () => {
    issuer.outage('down');
    const auth = jwtBearer(options({ jwks: { retryAfter: 7 } }));
    const error = await rejection(auth.verify(await issuer.sign(), request));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'jwks_unavailable' });
    // The time until the next fetch (1 s after the first failure), within the cap of 7.
    expect(error['headers']).toEqual({ 'retry-after': '1' });
    await expect(auth.ready()).rejects.toMatchObject({ status: 503 });
    issuer.outage('none');
  });

  it('keeps verifying with cached keys while the JWKS is down, until staleMs', async () => {
    let clock = Date.now();
    const jwks = { maxAgeMs: 60_000, staleMs: 3_600_000 };
    const auth = jwtBearer(options({ jwks, now: () => clock }));
    await auth.ready();
    issuer.outage('garbage');
    const token = await issuer.sign({}, { expiresIn: 86_400 });
    clock += 120_000;
    await auth.verify(token, request);
    issuer.outage('down');
    clock += 3_600_000 - 120_000;
    await expect(auth.verify(token, request)).rejects.toMatchObject({ code: 'jwks_unavailable' });
    issuer.outage('none');
  });

  it('answers 503 within timeoutMs when the JWKS is slow', async () => {
    issuer.outage('slow', { delayMs: 5_000 });
    const auth = jwtBearer(options({ jwks: { timeoutMs: 250 } }));
    const started = Date.now();
    await expect(auth.verify(await issuer.sign(), request)).rejects.toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(1_500);
    issuer.outage('none');
  });
});

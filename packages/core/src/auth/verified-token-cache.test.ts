import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from './jwt/jwt-bearer';
import type { Principal } from './principal';
import { createTokenIssuer } from '../testing/token-issuer';
import { createVerifiedTokenCache } from './verified-token-cache';

const principal: Principal = { subject: 'a', scopes: [], claims: {} };
const open = { validFrom: -Infinity, validUntil: Infinity };

describe('createVerifiedTokenCache', () => {
  it('answers a token only inside its validity window', () => {
    const cache = createVerifiedTokenCache();
    cache.set('t', principal, { validFrom: 1_000, validUntil: 2_000 }, 1_500, 0);
    expect(cache.get('t', 999, 0)).toBeUndefined();
    cache.set('t', principal, { validFrom: 1_000, validUntil: 2_000 }, 1_500, 0);
    expect(cache.get('t', 1_999, 0)).toBe(principal);
    expect(cache.get('t', 2_000, 0)).toBeUndefined();
  });

  it('never keeps an entry past maxAgeMs, whatever the token allows', () => {
    const cache = createVerifiedTokenCache({ maxAgeMs: 100 });
    cache.set('t', principal, open, 0, 0);
    expect(cache.get('t', 99, 0)).toBe(principal);
    expect(cache.get('t', 100, 0)).toBeUndefined();
  });

  it('empties itself when the key set changes', () => {
    const cache = createVerifiedTokenCache();
    cache.set('t', principal, open, 0, 1);
    expect(cache.get('t', 0, 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('holds at most max entries, dropping the oldest first', () => {
    const cache = createVerifiedTokenCache({ max: 2 });
    for (const token of ['a', 'b', 'c']) cache.set(token, principal, open, 0, 0);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0, 0)).toBeUndefined();
    expect(cache.get('c', 0, 0)).toBe(principal);
  });
});

describe('jwtBearer with the verified-token cache', () => {
  const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-bytes-long');

  it('refuses a cached token once it has expired, re-checking exp on every use', async () => {
    let now = Date.now();
    const auth = jwtBearer({ secret, clockTolerance: 0, now: () => now });
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + 60)
      .sign(secret);
    await expect(auth.verify(token, request)).resolves.toMatchObject({ scopes: [] });
    now += 61_000;
    await expect(auth.verify(token, request)).rejects.toMatchObject({ code: 'token_expired' });
  });

  it('re-checks nbf on every use', async () => {
    let now = Date.now();
    const auth = jwtBearer({ secret, clockTolerance: 0, now: () => now });
    const nbf = Math.floor(now / 1000) - 1;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(nbf)
      .sign(secret);
    await auth.verify(token, request);
    now = (nbf - 10) * 1000;
    await expect(auth.verify(token, request)).rejects.toMatchObject({
      code: 'token_not_yet_valid',
    });
  });

  it('drops tokens verified with a key set that has since changed', async () => {
    const idp = await createTokenIssuer();
    try {
      const auth = jwtBearer({ ...idp.jwtBearerOptions, jwks: { cooldownMs: 0 } });
      const old = await idp.sign();
      await auth.verify(old, request);
      await idp.rotate();
      await idp.rotate(); // the key of `old` is no longer published
      await auth.verify(await idp.sign(), request); // an unknown kid: the key set is fetched anew
      await expect(auth.verify(old, request)).rejects.toMatchObject({ code: 'key_not_found' });
    } finally {
      await idp.close();
    }
  });

  it('can be turned off', () => {
    expect(() => jwtBearer({ secret, cache: false })).not.toThrow();
    expect(() => jwtBearer({ secret, cache: { max: 0 } })).toThrow(/"cache.max"/);
    expect(() => jwtBearer({ secret, cache: { size: 1 } as never })).toThrow(/"cache.size"/);
  });
});

const request = { method: 'POST', path: '/plants', headers: () => undefined };

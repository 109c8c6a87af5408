import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTokenIssuer } from './token-issuer';
import type { TokenIssuer } from './token-issuer';
import { createDpopClient } from './dpop-client';
import { certificateThumbprint } from '../auth/mtls/certificate-thumbprint';
import { selfSignedCertificate } from '../auth/mtls/certificates.test-support';

async function keySet(issuer: TokenIssuer): Promise<JSONWebKeySet> {
  const response = await fetch(issuer.jwksUri);
  expect(response.status).toBe(200);
  return (await response.json()) as JSONWebKeySet;
}

async function kids(issuer: TokenIssuer): Promise<unknown[]> {
  return (await keySet(issuer)).keys.map((key) => key.kid);
}

describe('createTokenIssuer', () => {
  let issuer: TokenIssuer;
  beforeAll(async () => {
    issuer = await createTokenIssuer();
  });
  afterAll(() => issuer.close());

  it('serves its JWKS on 127.0.0.1 and names its own origin as issuer', async () => {
    expect(issuer.jwksUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json$/);
    expect(issuer.issuer).toBe(new URL(issuer.jwksUri).origin);
    expect(issuer.audience).toBe('plantstore');
    const { keys } = await keySet(issuer);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  it('mints RFC 9068 access tokens: at+jwt, iss, aud, sub, client_id, jti, iat, a one-hour exp, the kid of its key', async () => {
    const token = await issuer.sign({ scope: 'plants:write' });
    const { payload, protectedHeader } = await jwtVerify(
      token,
      createLocalJWKSet(await keySet(issuer)),
    );
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(await kids(issuer)).toContain(protectedHeader.kid);
    const now = Math.floor(Date.now() / 1000);
    expect(payload).toMatchObject({
      iss: issuer.issuer,
      aud: 'plantstore',
      sub: 'test-user',
      client_id: 'test-client',
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/u) as string,
    });
    expect(payload.scope).toBe('plants:write');
    expect(Math.abs((payload.iat ?? 0) - now)).toBeLessThanOrEqual(2);
    expect(payload.exp).toBe((payload.iat ?? 0) + 3600);
  });

  it('lets claims override the defaults and undefined remove them', async () => {
    const token = await issuer.sign({ sub: 'alice', aud: ['a', 'b'], iss: undefined, exp: 42 });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({ sub: 'alice', aud: ['a', 'b'], exp: 42 });
    expect(payload).not.toHaveProperty('iss');
  });

  it('binds a token to a client certificate, DER or PEM, beside a DPoP key', async () => {
    const certificate = selfSignedCertificate('client-a');
    const x5t = certificateThumbprint(certificate.der);
    const pem = decodeJwt(await issuer.sign({}, { certificate: certificate.cert }));
    expect(pem.cnf).toStrictEqual({ 'x5t#S256': x5t });
    const dpop = await createDpopClient('ES256');
    const both = decodeJwt(await issuer.sign({}, { certificate: certificate.der, boundTo: dpop }));
    expect(both.cnf).toStrictEqual({ jkt: dpop.jkt, 'x5t#S256': x5t });
  });

  it('sets exp, nbf and iat relative to now from seconds or durations', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await issuer.sign({}, { expiresIn: -60, notBefore: 30, issuedAt: '-2 hours' });
    const payload = decodeJwt(token);
    expect(Math.abs((payload.exp ?? 0) - (now - 60))).toBeLessThanOrEqual(2);
    expect(Math.abs((payload.nbf ?? 0) - (now + 30))).toBeLessThanOrEqual(2);
    expect(Math.abs((payload.iat ?? 0) - (now - 7200))).toBeLessThanOrEqual(2);
  });

  it('adds header fields, and signs with another algorithm of the same key type', async () => {
    const token = await issuer.sign({}, { header: { kid: 'other', cty: 'x' }, algorithm: 'PS256' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'PS256', kid: 'other', cty: 'x' });
  });

  it('signs with an unpublished key whose kid is not in the JWKS', async () => {
    const token = await issuer.sign({}, { key: 'unpublished' });
    expect(await kids(issuer)).not.toContain(decodeProtectedHeader(token).kid);
  });

  it('refuses to sign with the previous key before any rotation', async () => {
    const fresh = await createTokenIssuer({ algorithm: 'ES256' });
    await expect(fresh.sign({}, { key: 'previous' })).rejects.toThrow(/rotate/);
    await fresh.close();
  });

  it('keeps the previous key published until the next rotation', async () => {
    const rotating = await createTokenIssuer({
      algorithm: 'EdDSA',
      issuer: 'urn:test',
      audience: 'api',
    });
    const first = decodeProtectedHeader(await rotating.sign()).kid;
    await rotating.rotate();
    const second = decodeProtectedHeader(await rotating.sign()).kid;
    expect(await kids(rotating)).toEqual([second, first]);
    const old = await rotating.sign({}, { key: 'previous' });
    expect(decodeProtectedHeader(old).kid).toBe(first);
    await rotating.rotate();
    expect(await kids(rotating)).not.toContain(first);
    expect(await kids(rotating)).toContain(second);
    const { payload } = await jwtVerify(
      await rotating.sign(),
      createLocalJWKSet(await keySet(rotating)),
    );
    expect(payload).toMatchObject({ iss: 'urn:test', aud: 'api' });
    await rotating.close();
  });

  it('simulates an outage that is down, garbage or slow, and counts every JWKS request', async () => {
    const before = issuer.requests;
    issuer.outage('down');
    expect((await fetch(issuer.jwksUri)).status).toBe(503);
    issuer.outage('garbage');
    const garbage = await fetch(issuer.jwksUri);
    expect(garbage.status).toBe(200);
    await expect(garbage.json()).rejects.toThrow();
    issuer.outage('slow', { delayMs: 150 });
    const started = Date.now();
    expect((await fetch(issuer.jwksUri)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    issuer.outage('none');
    await keySet(issuer);
    expect(issuer.requests).toBe(before + 4);
    expect((await fetch(new URL('/other', issuer.jwksUri))).status).toBe(404);
    expect(issuer.requests).toBe(before + 4);
  });

  it('closes promptly while a slow answer is pending', async () => {
    const slow = await createTokenIssuer({ algorithm: 'ES256' });
    slow.outage('slow');
    const pending = fetch(slow.jwksUri).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await slow.close();
    expect(await pending).toBe('failed');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

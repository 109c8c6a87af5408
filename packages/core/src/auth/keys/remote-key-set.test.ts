import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InvalidTokenError } from '../../errors/bearer-errors';
import { ServiceUnavailableError } from '../../errors/server-errors';
import { jwtBearer } from '../jwt/jwt-bearer';
import { createRemoteKeySet } from './remote-key-set';
import type { JwtBearerJwksOptions as RemoteKeySetOptions } from './options/remote-key-set-options';
import { remoteKeySetConfig } from './options/remote-key-set-options';
import { createTokenIssuer } from '../../testing/token-issuer';
import type { TokenIssuer } from '../../testing/token-issuer';

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  // Starts at the real time: tokens carry the real `iat`, which the key set compares with its fetches.
  let time = Date.now();
  return { now: () => time, advance: (ms) => (time += ms) };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('createRemoteKeySet', () => {
  let issuer: TokenIssuer;
  let clock: ReturnType<typeof manualClock>;
  const keySet = (options: RemoteKeySetOptions = {}) =>
    createRemoteKeySet(new URL(issuer.jwksUri), remoteKeySetConfig(options, undefined, clock.now));
  const verify = (keys: ReturnType<typeof keySet>, token: string) => jwtVerify(token, keys.getKey);

  beforeAll(async () => {
    issuer = await createTokenIssuer();
  });
  afterAll(() => issuer.close());
  beforeEach(() => {
    issuer.outage('none');
    clock = manualClock();
  });

  it('fetches the key set on first use and resolves the key of a token', async () => {
    const keys = keySet();
    const before = issuer.requests;
    expect(keys.version).toBe(0);
    const { payload } = await verify(keys, await issuer.sign());
    expect(payload.sub).toBe('test-user');
    expect(keys.version).toBe(1);
    await verify(keys, await issuer.sign());
    expect(issuer.requests).toBe(before + 1);
  });

  it('keeps one fetch in flight for concurrent refreshes', async () => {
    const keys = keySet();
    const before = issuer.requests;
    await Promise.all([keys.refresh(), keys.refresh(), keys.ready(), keys.refresh()]);
    expect(issuer.requests).toBe(before + 1);
  });

  it('refetches for the unknown kid of a token issued before the last fetch once per cool-down', async () => {
    const keys = keySet({ cooldownMs: 30_000 });
    await keys.ready();
    const before = issuer.requests;
    const unknown = await issuer.sign({}, { key: 'unpublished', issuedAt: -60 });
    clock.advance(30_000);
    const error = await failure(verify(keys, unknown));
    expect(error).toBeInstanceOf(InvalidTokenError);
    expect(error).toMatchObject({ status: 401, code: 'key_not_found' });
    expect(issuer.requests).toBe(before + 1);
    clock.advance(29_999);
    await expect(verify(keys, unknown)).rejects.toMatchObject({ code: 'key_not_found' });
    expect(issuer.requests).toBe(before + 1);
    clock.advance(1);
    await expect(verify(keys, unknown)).rejects.toMatchObject({ code: 'key_not_found' });
    expect(issuer.requests).toBe(before + 2);
  });

  it('refetches at most once a second for unknown kids of tokens issued since the last fetch', async () => {
    const keys = keySet({ cooldownMs: 30_000 });
    await keys.ready();
    const before = issuer.requests;
    const started = Date.now();
    // Issued after the fetch (the key set's clock has not moved): each may carry a brand-new key.
    const tokens = await Promise.all(
      [1, 2, 3, 4, 5].map(() => issuer.sign({}, { key: 'unpublished', issuedAt: 2 })),
    );
    const answers = await Promise.all(tokens.map((token) => failure(verify(keys, token))));
    for (const answer of answers)
      expect(answer).toMatchObject({ status: 401, code: 'key_not_found' });
    // Five tokens, one fetch, after waiting out the second since the last one.
    expect(issuer.requests).toBe(before + 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('picks up a key the provider signs with at once after a rotation, within about a second', async () => {
    const keys = keySet({ cooldownMs: 30_000 });
    await keys.ready();
    await verify(keys, await issuer.sign());
    await issuer.rotate();
    const started = Date.now();
    const { payload } = await verify(keys, await issuer.sign({}, { issuedAt: 1 }));
    expect(payload.sub).toBe('test-user');
    // About 1 s (the refetch waits out the second since the last one); the bound leaves room for a
    // busy machine and stays far below the 30 s cool-down.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('retries a failed fetch after 1 s, then 2 s, so it recovers within seconds of the provider', async () => {
    issuer.outage('down');
    const keys = keySet({ cooldownMs: 30_000 });
    await expect(verify(keys, await issuer.sign())).rejects.toMatchObject({ status: 503 });
    const before = issuer.requests;
    clock.advance(999);
    await expect(verify(keys, await issuer.sign())).rejects.toMatchObject({ status: 503 });
    expect(issuer.requests).toBe(before);
    clock.advance(1);
    await expect(verify(keys, await issuer.sign())).rejects.toMatchObject({ status: 503 });
    expect(issuer.requests).toBe(before + 1);
    clock.advance(1_999);
    issuer.outage('none');
    await expect(verify(keys, await issuer.sign())).rejects.toMatchObject({ status: 503 });
    expect(issuer.requests).toBe(before + 1);
    clock.advance(1);
    await verify(keys, await issuer.sign());
    expect(issuer.requests).toBe(before + 2);
  });

  it('finds a rotated-in key by refreshing, and counts a change of the key set as a new version', async () => {
    const keys = keySet({ cooldownMs: 0 });
    await keys.ready();
    await keys.refresh();
    expect(keys.version).toBe(1);
    await issuer.rotate();
    await verify(keys, await issuer.sign());
    expect(keys.version).toBe(2);
    await verify(keys, await issuer.sign({}, { key: 'previous' }));
  });

  it('refreshes keys older than maxAgeMs before using them', async () => {
    const keys = keySet({ maxAgeMs: 60_000 });
    await keys.ready();
    const before = issuer.requests;
    clock.advance(59_999);
    await verify(keys, await issuer.sign());
    expect(issuer.requests).toBe(before);
    clock.advance(1);
    await verify(keys, await issuer.sign());
    expect(issuer.requests).toBe(before + 1);
  });

  it('answers 503 jwks_unavailable with Retry-After when the JWKS is down and no key was fetched', async () => {
    issuer.outage('down');
    const keys = keySet({ retryAfter: 12 });
    const error = await failure(verify(keys, await issuer.sign()));
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'jwks_unavailable', expose: false });
    // The next fetch may start 1 s after the first failure: that, not retryAfter, is the answer.
    expect((error as ServiceUnavailableError).headers).toEqual({ 'retry-after': '1' });
    expect((error as Error).cause).toBeInstanceOf(Error);
    await expect(keys.ready()).rejects.toMatchObject({ code: 'jwks_unavailable' });
    issuer.outage('none');
    await keys.ready();
    await verify(keys, await issuer.sign());
  });

  it.each(['down', 'garbage'] as const)(
    'keeps serving cached keys while the JWKS is %s, until staleMs after their fetch',
    async (mode) => {
      const keys = keySet({ maxAgeMs: 60_000, staleMs: 600_000, cooldownMs: 30_000 });
      await keys.ready();
      issuer.outage(mode);
      const before = issuer.requests;
      clock.advance(60_000);
      await verify(keys, await issuer.sign());
      expect(issuer.requests).toBe(before + 1);
      await expect(keys.refresh()).rejects.toMatchObject({ code: 'jwks_unavailable' });
      expect(issuer.requests).toBe(before + 2);
      // Within the cool-down of a failed fetch, requests do not wait on the provider again.
      clock.advance(29_000);
      await verify(keys, await issuer.sign());
      expect(issuer.requests).toBe(before + 2);
      await keys.ready();
      clock.advance(600_000 - 60_000 - 29_000 - 1);
      await verify(keys, await issuer.sign());
      clock.advance(1);
      await expect(verify(keys, await issuer.sign())).rejects.toMatchObject({
        status: 503,
        code: 'jwks_unavailable',
      });
    },
  );

  it('answers 503 within timeoutMs when the JWKS is slow', async () => {
    issuer.outage('slow', { delayMs: 5_000 });
    const keys = keySet({ timeoutMs: 200 });
    const started = Date.now();
    const error = await failure(verify(keys, await issuer.sign()));
    expect(error).toMatchObject({ status: 503, code: 'jwks_unavailable' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('never follows a jku header to another key set', async () => {
    const other = await createTokenIssuer();
    const keys = keySet();
    const token = await other.sign({}, { header: { jku: other.jwksUri } });
    await expect(verify(keys, token)).rejects.toMatchObject({ code: 'key_not_found' });
    expect(other.requests).toBe(0);
    await other.close();
  });

  it('refuses non-numeric or negative durations and a staleMs below maxAgeMs', () => {
    const url = new URL('https://id.example.com/jwks');
    const create = (options: RemoteKeySetOptions) => () =>
      createRemoteKeySet(url, remoteKeySetConfig(options));
    expect(create({ timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(create({ cooldownMs: Number.NaN })).toThrow(/cooldownMs/);
    expect(create({ maxAgeMs: 10, staleMs: 5 })).toThrow(/staleMs/);
    // Without an explicit staleMs, a long maxAgeMs raises it instead of failing.
    expect(create({ maxAgeMs: 7_200_000 })).not.toThrow();
  });
});

describe('createRemoteKeySet against a broken endpoint', () => {
  let status = 200;
  let body = '';
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', location: '/elsewhere' });
    response.end(body);
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    [200, '[]'],
    [200, '{"keys":{}}'],
    [200, '{"keys":[1]}'],
    [200, 'null'],
    [302, '{"keys":[]}'],
    [404, '{"keys":[]}'],
  ])('counts an answer of %i %s as an outage', async (answerStatus, answerBody) => {
    status = answerStatus;
    body = answerBody;
    const { port } = server.address() as AddressInfo;
    const keys = createRemoteKeySet(
      new URL(`http://127.0.0.1:${port}/jwks`),
      remoteKeySetConfig({}),
    );
    await expect(keys.refresh()).rejects.toMatchObject({ status: 503, code: 'jwks_unavailable' });
    expect(keys.version).toBe(0);
  });
});

describe('a token of a key not held, while the provider is down', () => {
  it('answers 503 jwks_unavailable, not 401: the client should retry, not drop its request', async () => {
    const idp = await createTokenIssuer();
    try {
      const auth = jwtBearer({ ...idp.jwtBearerOptions, jwks: { cooldownMs: 0 } });
      await auth.ready();
      idp.outage('down');
      await idp.rotate();
      const request = { method: 'POST', path: '/plants', headers: () => undefined };
      await expect(auth.verify(await idp.sign(), request)).rejects.toMatchObject({
        status: 503,
        code: 'jwks_unavailable',
      });
    } finally {
      await idp.close();
    }
  });
});

import { describe, expect, it, vi } from 'vitest';
import { tokenIntrospection } from './token-introspection';
import {
  optionsFor,
  startIntrospectionEndpoint,
  useIntrospectionEndpoint,
  type IntrospectionEndpoint,
  type OptionChanges,
} from './introspection-endpoint.test-support';

const endpoint = useIntrospectionEndpoint();

const START = Date.UTC(2026, 0, 1);
const options = (changes: OptionChanges = {}) =>
  optionsFor(endpoint(), { audience: 'plants', ...changes });
const active = (exp: number) => ({ sub: 'alice', aud: 'plants', exp: exp / 1000 });

describe('tokenIntrospection answers 503 introspection_unavailable while the provider is unusable', () => {
  const html = { status: 200, type: 'text/html', body: '<html>Sign in</html>' };
  const cases: [string, IntrospectionEndpoint['override']][] = [
    ['answers 500', { status: 500, type: 'application/json', body: '{"error":"server_error"}' }],
    ['answers 429', { status: 429, type: 'text/plain', body: 'slow down' }],
    ['answers 400', { status: 400, type: 'application/json', body: '{"error":"invalid_request"}' }],
    ['redirects', { status: 302, type: 'text/plain', body: '' }],
    ['answers an HTML page', html],
    ['answers a JSON array', { status: 200, type: 'application/json', body: '[]' }],
    ['answers without a boolean active', { status: 200, type: 'application/json', body: '{}' }],
    ['is slower than timeoutMs', 'hang'],
  ];
  it.each(cases)('when it %s: 503 with Retry-After, never 401', async (_name, override) => {
    endpoint().override = override;
    const error = await tokenIntrospection(options({ timeoutMs: 200 }))
      .verify('opaque-1')
      .catch((caught: unknown) => caught as Record<string, unknown>);
    expect(error).toMatchObject({
      name: 'ServiceUnavailableError',
      status: 503,
      code: 'introspection_unavailable',
      expose: false,
      headers: { 'retry-after': '5' },
    });
  });

  it('when nothing listens on its port', async () => {
    const gone = await startIntrospectionEndpoint();
    await gone.close();
    const auth = tokenIntrospection(options({ endpoint: gone.endpoint }));
    await expect(auth.verify('opaque-1')).rejects.toMatchObject({
      status: 503,
      code: 'introspection_unavailable',
    });
  });

  it('refuses with 401 token_type_mismatch a token the endpoint answers 400 unsupported_token_type', async () => {
    const body = '{"error":"unsupported_token_type"}';
    endpoint().override = { status: 400, type: 'application/json', body };
    await expect(tokenIntrospection(options()).verify('a.b.c')).rejects.toMatchObject({
      status: 401,
      code: 'token_type_mismatch',
    });
  });

  it('answers 500 auth_failed when the endpoint refuses our own credentials (401): a set-up error', async () => {
    endpoint().override = {
      status: 401,
      type: 'application/json',
      body: '{"error":"invalid_client"}',
    };
    await expect(tokenIntrospection(options()).verify('opaque-1')).rejects.toMatchObject({
      name: 'InternalServerError',
      status: 500,
      code: 'auth_failed',
      expose: false,
    });
  });
});

describe('tokenIntrospection calls the endpoint once per token', () => {
  it('shares one call among concurrent requests with the same token', async () => {
    endpoint().answers.set('opaque-1', active(Date.now() + 3_600_000));
    const auth = tokenIntrospection(options({ cache: false }));
    const release = endpoint().hold();
    const waiting = Array.from({ length: 5 }, () => auth.verify('opaque-1'));
    await vi.waitFor(() => expect(endpoint().requests).toHaveLength(1));
    release();
    const principals = await Promise.all(waiting);
    expect(principals.map(({ subject }) => subject)).toStrictEqual(Array(5).fill('alice'));
    expect(endpoint().requests).toHaveLength(1);
    await auth.verify('opaque-1');
    expect(endpoint().requests).toHaveLength(2);
  });

  // The provider forgets the token at the boundary (expired or revoked): only a new call sees it.
  it.each([
    ["the token's exp", 120_000, 600_000],
    ['cache.maxAgeMs, so a revocation is seen within it', 3_600_000, 30_000],
  ])(
    'serves an active answer from the cache until %s, then asks again',
    async (_, life, maxAgeMs) => {
      const boundary = Math.min(life, maxAgeMs);
      let now = START;
      endpoint().answers.set('opaque-1', active(START + life));
      const auth = tokenIntrospection(options({ now: () => now, cache: { maxAgeMs } }));
      await auth.verify('opaque-1');
      endpoint().answers.delete('opaque-1');
      now = START + boundary - 1;
      await expect(auth.verify('opaque-1')).resolves.toMatchObject({ subject: 'alice' });
      expect(endpoint().requests).toHaveLength(1);
      now = START + boundary;
      await expect(auth.verify('opaque-1')).rejects.toMatchObject({ code: 'token_inactive' });
      expect(endpoint().requests).toHaveLength(2);
    },
  );

  it('keeps at most cache.max tokens, dropping the oldest', async () => {
    const exp = Date.now() + 3_600_000;
    for (const token of ['t1', 't2', 't3']) endpoint().answers.set(token, active(exp));
    const auth = tokenIntrospection(options({ cache: { max: 2 } }));
    for (const token of ['t1', 't2', 't3', 't3', 't2']) await auth.verify(token);
    expect(endpoint().requests).toHaveLength(3);
    await auth.verify('t1');
    expect(endpoint().requests).toHaveLength(4);
  });

  it('never caches an inactive answer: junk tokens cannot push real ones out', async () => {
    const auth = tokenIntrospection(options());
    for (let i = 0; i < 2; i += 1) {
      await expect(auth.verify('unknown')).rejects.toMatchObject({ code: 'token_inactive' });
    }
    expect(endpoint().requests).toHaveLength(2);
  });
});

describe('tokenIntrospection discovers the endpoint from the issuer', () => {
  it('reads RFC 8414 metadata once, on ready()', async () => {
    endpoint().answers.set('opaque-1', active(Date.now() + 3_600_000));
    const auth = tokenIntrospection(options({ endpoint: undefined, cache: false }));
    await auth.ready();
    await auth.verify('opaque-1');
    await auth.verify('opaque-1');
    expect(endpoint().metadataRequests).toStrictEqual(['/.well-known/oauth-authorization-server']);
    expect(endpoint().requests).toHaveLength(2);
  });

  it('falls back on the OpenID configuration', async () => {
    endpoint().metadata = 'openid';
    endpoint().answers.set('opaque-1', active(Date.now() + 3_600_000));
    await tokenIntrospection(options({ endpoint: undefined })).verify('opaque-1');
    expect(endpoint().metadataRequests).toStrictEqual([
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
  });

  it('answers 500 auth_failed without metadata, and 503 while the issuer is down, then retries', async () => {
    let clock = Date.now();
    endpoint().metadata = 'none';
    const auth = tokenIntrospection(options({ endpoint: undefined, now: () => clock }));
    await expect(auth.verify('opaque-1')).rejects.toMatchObject({ code: 'auth_failed' });
    const gone = await startIntrospectionEndpoint();
    await gone.close();
    const down = tokenIntrospection(options({ endpoint: undefined, issuer: gone.issuer }));
    await expect(down.ready()).rejects.toMatchObject({ code: 'introspection_unavailable' });
    endpoint().metadata = 'oauth';
    endpoint().answers.set('opaque-1', active(Date.now() + 3_600_000));
    // Within the first back-off (1 s) the failed discovery is not tried again.
    await expect(auth.verify('opaque-1')).rejects.toMatchObject({ code: 'auth_failed' });
    expect(endpoint().metadataRequests).toHaveLength(2);
    clock += 1000;
    await expect(auth.verify('opaque-1')).resolves.toMatchObject({ subject: 'alice' });
  });

  it('backs a failing discovery off 1 s, 2 s, 4 s, answering 503 with the wait as Retry-After', async () => {
    let clock = Date.now();
    const gone = await startIntrospectionEndpoint();
    await gone.close();
    const down = tokenIntrospection(
      options({ endpoint: undefined, issuer: gone.issuer, now: () => clock }),
    );
    const refusals: unknown[] = [];
    for (const step of [0, 1000, 500, 1500, 1000]) {
      clock += step;
      refusals.push(await down.verify('opaque-1').catch((error: unknown) => error));
    }
    // Tried at 0, 1 s and 3 s; refused without a try at 1.5 s (1.5 s left) and 4 s (3 s left).
    expect(
      refusals.map((error) => {
        const { code, headers } = error as { code: string; headers: Record<string, string> };
        return [code, headers['retry-after']];
      }),
    ).toStrictEqual([
      ['introspection_unavailable', '5'],
      ['introspection_unavailable', '5'],
      ['introspection_unavailable', '2'],
      ['introspection_unavailable', '5'],
      ['introspection_unavailable', '3'],
    ]);
  });
});

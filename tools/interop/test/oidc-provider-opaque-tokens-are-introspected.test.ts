import {
  memoryStore,
  tokenIntrospection,
  type PlantServiceOptions,
  type Principal,
  type TokenIntrospectionOptions,
} from '@plantstore/core';
import type { ContractHost } from '@plantstore/http-suite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, expectInvalidToken, expectUnavailable } from '../src/expect-answer';
import { mounts, postPlant, type Services } from '../src/plant-hosts';
import {
  ACCESS_TOKEN_TTL,
  API,
  CLIENTS,
  INTROSPECTOR_ID,
  INTROSPECTOR_KEY,
  OTHER_API,
} from '../src/provider-config';
import { jwtBearerFor, providerOfThisFile } from '../src/provider-of-this-file';
import { clientCredentials, revokeToken } from '../src/token-endpoint';

// oidc-provider issues the opaque client's access tokens as opaque handles (`accessTokenFormat:
// 'opaque'`) and answers RFC 7662 introspection for the resource servers; every token comes from its
// token endpoint over HTTP and goes to the route over HTTP, through node:http and Express.

const provider = providerOfThisFile();

async function opaqueToken(resource = API, scope = 'plants:write'): Promise<string> {
  const { access_token: token } = await clientCredentials(provider.issuer, CLIENTS.opaque, {
    scope,
    resource,
  });
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return token;
}

describe.each(mounts)('oidc-provider 9 opaque tokens at the route, through $name', (mount) => {
  const rejected: string[] = [];
  const created: Principal[] = [];
  let clock: number | undefined;
  let host: ContractHost;

  // The API client introspects with client_secret_basic unless `options` says otherwise.
  const asApi = { clientId: CLIENTS.api.id, clientSecret: CLIENTS.api.secret };

  function service(options: Omit<TokenIntrospectionOptions, 'issuer'>): PlantServiceOptions {
    return {
      store: memoryStore(),
      auth: tokenIntrospection({
        issuer: provider.issuer,
        audience: API,
        requiredScopes: ['plants:write'],
        ...options,
      }),
      onRejected: (error) => void rejected.push(error.code),
      onCreated: (_plant, context) => void (context.principal && created.push(context.principal)),
    };
  }

  beforeAll(async () => {
    const services: Services = {
      // The endpoint discovered from the issuer's metadata; client_secret_basic; cached.
      '/discovered': service({ ...asApi, now: () => clock ?? Date.now() }),
      // The endpoint given; private_key_jwt; every request introspected.
      '/uncached': service({
        endpoint: `${provider.issuer}/token/introspection`,
        clientId: INTROSPECTOR_ID,
        privateKey: INTROSPECTOR_KEY,
        cache: false,
        timeoutMs: 2_000,
      }),
      // The provider's JWT access tokens verified with its key set, its opaque ones introspected.
      '/both': service({
        ...asApi,
        jwt: jwtBearerFor(provider, { requiredScopes: ['plants:write'] }),
      }),
    };
    host = await mount.start(services);
  });
  afterAll(() => host.close());
  afterEach(async () => {
    clock = undefined;
    // A test that stopped the provider must not leave it down for the next one.
    if (
      !(await fetch(provider.jwksUri).then(
        () => true,
        () => false,
      ))
    )
      await provider.start();
  });

  it('accepts an active opaque token: 200, the answer as claims, no subject for a client', async () => {
    const token = await opaqueToken();
    for (const prefix of ['/discovered', '/uncached', '/both']) {
      const reply = await postPlant(host, prefix, token, { id: 1, name: 'Fern' });
      expectAnswer(reply, 200, { name: 'Fern' });
    }
    expect(created.at(-1)).toMatchObject({
      subject: undefined,
      scopes: ['plants:write'],
      claims: {
        active: true,
        client_id: CLIENTS.opaque.id,
        iss: provider.issuer,
        aud: API,
        token_type: 'Bearer',
      },
    });
  });

  it('sends a JWT access token to jwtBearer where both are configured', async () => {
    const { access_token: jwt } = await clientCredentials(provider.issuer, CLIENTS.rs256, {
      scope: 'plants:write',
    });
    // '/both' verifies it with the key set; '/uncached' introspects only, and oidc-provider refuses
    // to introspect a JWT (400 unsupported_token_type): 401, the token is not one it handles.
    const replies = await Promise.all(
      ['/both', '/uncached'].map((prefix) => postPlant(host, prefix, jwt, { id: 2, name: 'Ivy' })),
    );
    const description = 'The authorization server does not introspect this kind of token';
    expect(replies.map(({ status, json }) => [status, json])).toStrictEqual([
      [200, { name: 'Ivy' }],
      [401, { error: 401, message: `The bearer token is not valid: ${description}` }],
    ]);
    expect(rejected.at(-1)).toBe('token_type_mismatch');
  });

  /** Sends the token (200), lets `change` happen, sends it again: refused with `code`. */
  async function acceptedThenRefused(
    prefix: string,
    change: (token: string) => Promise<void>,
    description: string,
    code: string,
  ): Promise<void> {
    const token = await opaqueToken();
    const send = () => postPlant(host, prefix, token, { id: 3, name: 'Moss' });
    const before = await send();
    await change(token);
    const after = await send();
    expect([before.status, before.json]).toStrictEqual([200, { name: 'Moss' }]);
    expectInvalidToken(after, description);
    expect(rejected.at(-1)).toBe(code);
  }

  it('refuses a revoked token with 401 token_inactive', async () => {
    const revoke = async (token: string) => {
      expect(await revokeToken(provider.issuer, CLIENTS.opaque, token)).toBe(200);
    };
    await acceptedThenRefused('/uncached', revoke, 'The token is not active', 'token_inactive');
  });

  it('refuses an expired token with 401 token_expired, on a clock moved past its exp', async () => {
    const expire = () => {
      clock = Date.now() + (ACCESS_TOKEN_TTL + 1) * 1000;
      return Promise.resolve();
    };
    await acceptedThenRefused('/discovered', expire, 'The token has expired', 'token_expired');
  });

  it('refuses a token for another resource with 401 audience_mismatch', async () => {
    const token = await opaqueToken(OTHER_API);
    expectInvalidToken(
      await postPlant(host, '/discovered', token, { id: 5, name: 'Oak' }),
      'The token is not for this audience',
    );
    expect(rejected.at(-1)).toBe('audience_mismatch');
  });

  it('refuses a token without the required scope with 403 insufficient_scope', async () => {
    const token = await opaqueToken(API, 'plants:read');
    const reply = await postPlant(host, '/discovered', token, { id: 6, name: 'Yew' });
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toContain('error="insufficient_scope"');
  });

  it('answers 503 introspection_unavailable with Retry-After while the provider is stopped', async () => {
    const token = await opaqueToken();
    await provider.stop();
    const reply = await postPlant(host, '/uncached', token, { id: 7, name: 'Ash' });
    expectUnavailable(reply, '5');
    expect(rejected.at(-1)).toBe('introspection_unavailable');
  });
});

import { memoryStore, type PlantServiceOptions, type Principal } from '@plantstore/core';
import type { ContractHost } from '@plantstore/http-suite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAnswer, expectInvalidToken } from '../src/expect-answer';
import { mounts, postPlant, type Services } from '../src/plant-hosts';
import { ACCESS_TOKEN_TTL, API, CLIENTS, OTHER_API, type Client } from '../src/provider-config';
import {
  jwtBearerFor,
  type ProviderBearerOptions,
  providerOfThisFile,
} from '../src/provider-of-this-file';
import { clientCredentials, decodeJwt, signInToTheApiClient } from '../src/token-endpoint';

// oidc-provider (https://github.com/panva/node-oidc-provider), an OpenID Certified provider, runs in
// this process; every token below comes from its token endpoint over HTTP, and goes to the route over
// HTTP, through node:http and through Express.

const provider = providerOfThisFile();

async function accessToken(client: Client = CLIENTS.rs256, scope = 'plants:write', resource = API) {
  return (await clientCredentials(provider.issuer, client, { scope, resource })).access_token;
}

describe.each(mounts)('oidc-provider 9 tokens at the route, through $name', (mount) => {
  const rejected: string[] = [];
  const created: Principal[] = [];
  let clock: number | undefined;
  let host: ContractHost;

  /** One service per set of checks, each with its own store. */
  function service(extra: ProviderBearerOptions = {}): PlantServiceOptions {
    return {
      store: memoryStore(),
      auth: jwtBearerFor(provider, extra),
      onRejected: (error) => void rejected.push(error.code),
      onCreated: (_plant, context) => void (context.principal && created.push(context.principal)),
    };
  }

  beforeAll(async () => {
    const scoped = { requiredScopes: ['plants:write'] };
    const services: Services = {
      '/default': service(scoped),
      '/at-jwt': service({ ...scoped, typ: 'at+jwt' }),
      '/rfc9068': service({ ...scoped, profile: 'rfc9068' }),
      // jwtBearer({ jwksUri, issuer, audience }) and nothing else, as issue 13 found it.
      '/unscoped': service(),
      // The same checks as /default, on a clock the test moves.
      '/clock': service({ ...scoped, now: () => clock ?? Date.now() }),
    };
    host = await mount.start(services);
  });
  afterAll(() => host.close());

  it('creates a plant with an RS256 access token, replays it with 200 and refuses a conflict with 409', async () => {
    const token = await accessToken(CLIENTS.rs256);
    expect(decodeJwt(token).header).toStrictEqual({ alg: 'RS256', typ: 'at+jwt', kid: 'rsa-1' });

    const plant = { id: 1, name: 'Fern', tag: 'indoor' };
    const first = await postPlant(host, '/default', token, plant);
    expectAnswer(first, 200, { name: 'Fern', tag: 'indoor' });
    expect(first.text).toBe('{"name":"Fern","tag":"indoor"}');
    expect(first.headers['www-authenticate']).toBeUndefined();
    expectAnswer(await postPlant(host, '/default', token, plant), 200, {
      name: 'Fern',
      tag: 'indoor',
    });
    expectAnswer(await postPlant(host, '/default', token, { ...plant, name: 'Ivy' }), 409, {
      error: 409,
      message:
        'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.',
    });
    expect(created.at(-1)).toMatchObject({
      subject: CLIENTS.rs256.id,
      scopes: ['plants:write'],
      claims: { client_id: CLIENTS.rs256.id, aud: API, iss: provider.issuer },
    });
  });

  it('creates a plant with an ES256 access token got with client_secret_post, replays and conflicts', async () => {
    const token = await accessToken(CLIENTS.es256);
    expect(decodeJwt(token).header).toStrictEqual({ alg: 'ES256', typ: 'at+jwt', kid: 'ec-1' });

    const plant = { id: 7, name: 'Basil' };
    expectAnswer(await postPlant(host, '/default', token, plant), 200, { name: 'Basil' });
    expectAnswer(await postPlant(host, '/default', token, plant), 200, { name: 'Basil' });
    expectAnswer(await postPlant(host, '/default', token, { ...plant, tag: 'herb' }), 409, {
      error: 409,
      message:
        'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.',
    });
    expect(created.at(-1)).toMatchObject({ subject: CLIENTS.es256.id });
  });

  it('refuses a token granted plants:read only with 403 insufficient_scope naming plants:write', async () => {
    const response = await clientCredentials(provider.issuer, CLIENTS.rs256, {
      scope: 'plants:read',
    });
    expect(response.scope).toBe('plants:read');
    const reply = await postPlant(host, '/default', response.access_token, { id: 1, name: 'Fern' });
    expectAnswer(reply, 403, {
      error: 403,
      message: 'The bearer token lacks a required scope: plants:write.',
    });
    expect(reply.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", ' +
        'error_description="The token lacks a required scope", scope="plants:write"',
    );
    expect(rejected.at(-1)).toBe('scope_insufficient');
  });

  it('refuses a token issued for another resource with 401 audience_mismatch', async () => {
    const token = await accessToken(CLIENTS.rs256, 'plants:write', OTHER_API);
    expect(decodeJwt(token).payload['aud']).toBe(OTHER_API);
    expectInvalidToken(
      await postPlant(host, '/default', token, { id: 1, name: 'Fern' }),
      'The token is for another audience',
    );
    expect(rejected.at(-1)).toBe('audience_mismatch');
  });

  it("accepts oidc-provider's access tokens under profile rfc9068 and typ at+jwt: they are RFC 9068 tokens", async () => {
    const token = await accessToken(CLIENTS.rs256);
    const { header, payload } = decodeJwt(token);
    expect(header['typ']).toBe('at+jwt');
    expect(Object.keys(payload).sort()).toStrictEqual(
      ['aud', 'client_id', 'exp', 'iat', 'iss', 'jti', 'scope', 'sub'].sort(),
    );
    expect(payload).toMatchObject({ sub: CLIENTS.rs256.id, client_id: CLIENTS.rs256.id });
    expect(payload['exp']).toBe(Number(payload['iat']) + ACCESS_TOKEN_TTL);

    expectAnswer(await postPlant(host, '/rfc9068', token, { id: 2, name: 'Moss' }), 200, {
      name: 'Moss',
    });
    expectAnswer(await postPlant(host, '/at-jwt', token, { id: 2, name: 'Moss' }), 200, {
      name: 'Moss',
    });
  });

  it('refuses an ID token whose aud is the API with 401 token_type_mismatch under every configuration', async () => {
    const response = await signInToTheApiClient(provider.issuer, 'alice');
    const idToken = response.id_token ?? '';
    const { header, payload } = decodeJwt(idToken);
    // oidc-provider signs ID tokens with no typ at all, and their aud is the client: here the API.
    expect(header).toStrictEqual({ alg: 'RS256', kid: 'rsa-1' });
    expect(payload).toMatchObject({
      aud: API,
      sub: 'alice',
      iss: provider.issuer,
      nonce: 'nonce-1',
    });

    expectInvalidToken(
      await postPlant(host, '/at-jwt', idToken, { id: 3, name: 'Fern' }),
      'The token is not an access token of an accepted type',
    );
    expect(rejected.at(-1)).toBe('token_type_mismatch');
    // The profile refuses it too, as what it is, though it also lacks the profile's claims.
    expectInvalidToken(
      await postPlant(host, '/rfc9068', idToken, { id: 3, name: 'Fern' }),
      'The token is not an access token of an accepted type',
    );
    expect(rejected.at(-1)).toBe('token_type_mismatch');

    // The default takes a token without typ for an access token (Keycloak's and Entra ID's are typed
    // JWT), so its claims tell an ID token apart: this one carries the login's nonce. Issue 13 found
    // it creating a plant under jwtBearer({ jwksUri, issuer, audience }); issue 25 refuses it there.
    for (const path of ['/unscoped', '/default']) {
      expectInvalidToken(
        await postPlant(host, path, idToken, { id: 3, name: 'Fern' }),
        'The token is an ID token, not an access token',
      );
      expect(rejected.at(-1)).toBe('token_type_mismatch');
    }
    expect(created.filter(({ subject }) => subject === 'alice')).toStrictEqual([]);
  });

  // The profile's required claims fail first on an ID token; it is still refused as what it is.
  it('refuses an ID token under profile rfc9068 with the reason token_type_mismatch', async () => {
    const idToken = (await signInToTheApiClient(provider.issuer, 'bob')).id_token ?? '';
    const reply = await postPlant(host, '/rfc9068', idToken, { id: 5, name: 'Fern' });
    expect(reply.status).toBe(401);
    expect(rejected.at(-1)).toBe('token_type_mismatch');
  });

  it('refuses an access token with 401 token_expired once the clock passes exp and the 5 s tolerance', async () => {
    const token = await accessToken(CLIENTS.es256);
    const exp = Number(decodeJwt(token).payload['exp']);
    try {
      clock = (exp + 5) * 1000 - 1;
      expectAnswer(await postPlant(host, '/clock', token, { id: 4, name: 'Aloe' }), 200, {
        name: 'Aloe',
      });
      clock = (exp + 5) * 1000;
      expectInvalidToken(
        await postPlant(host, '/clock', token, { id: 4, name: 'Aloe' }),
        'The token has expired',
      );
      expect(rejected.at(-1)).toBe('token_expired');
    } finally {
      clock = undefined;
    }
  });
});

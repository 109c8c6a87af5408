import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { dpopBinding } from '../auth/dpop/dpop-binding';
import { memoryStore } from '../plant/memory-store';
import { createPlantService } from './service';

const secret = 'a-secret-that-is-at-least-32-bytes-long';
const staticKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
// Published keys: only such an issuer is an authorization server of the metadata.
const auth = (extra: Record<string, unknown> = {}) =>
  jwtBearer({
    jwksUri: 'https://id.example.com/jwks',
    issuer: 'https://id.example.com/',
    audience: 'https://api.example.com/plants',
    requiredScopes: ['plants:write'],
    ...extra,
  });

describe('RFC 9728 protected-resource metadata', () => {
  it('is built from the configuration that checks tokens, and served at both well-known paths', async () => {
    const service = createPlantService({
      store: memoryStore(),
      auth: auth({ dpop: dpopBinding({ required: true, algorithms: ['ES256', 'EdDSA'] }) }),
      publicUrl: 'https://api.example.com',
      resourceMetadata: { resourceName: 'Plants' },
    });
    const expected = {
      resource: 'https://api.example.com/plants',
      authorization_servers: ['https://id.example.com/'],
      scopes_supported: ['plants:write'],
      bearer_methods_supported: ['header'],
      dpop_signing_alg_values_supported: ['ES256', 'EdDSA'],
      dpop_bound_access_tokens_required: true,
      resource_name: 'Plants',
    };
    expect(service.resourceMetadata?.paths).toStrictEqual([
      '/.well-known/oauth-protected-resource/plants',
      '/.well-known/oauth-protected-resource',
    ]);
    for (const path of service.resourceMetadata?.paths ?? []) {
      const response = await service.fetch(new Request(`http://localhost${path}`));
      expect(response.status).toBe(200);
      expect(Object.fromEntries(response.headers)).toStrictEqual({
        'cache-control': 'public, max-age=3600',
        'content-type': 'application/json; charset=utf-8',
      });
      expect(await response.json()).toStrictEqual(expected);
    }
    const post = await service.fetch(
      new Request('http://localhost/.well-known/oauth-protected-resource', { method: 'POST' }),
    );
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(await post.json()).toStrictEqual({
      error: 405,
      message: 'Only GET, HEAD are allowed here.',
    });
  });

  it('names as authorization servers only issuer URLs whose keys are published, and leaves the member out without one', async () => {
    const api = 'https://api.example.com/plants';
    const jwks = (path: string) => `https://login.example.com/${path}`;
    const entries = [
      // Tenants of one provider on one JWKS: the servers a client may ask for a token.
      { issuer: 'https://login.example.com/tenant-a/v2.0', jwksUri: jwks('keys') },
      { issuer: 'https://login.example.com/tenant-b/v2.0', jwksUri: jwks('keys') },
      { issuer: 'http://127.0.0.1:8080', jwksUri: 'http://127.0.0.1:8080/jwks' },
      // Names, not servers, and servers no client could be sent to.
      { issuer: 'billing-internal', secret },
      { issuer: 'https://static.example.com/', publicKey: staticKey },
      { issuer: 'https://hmac.example.com/', secret },
      { issuer: 'urn:example:idp', jwksUri: jwks('urn') },
      { issuer: 'http://id.example.com/', jwksUri: jwks('http') },
      { issuer: 'https://id.example.com/?tenant=a', jwksUri: jwks('query') },
      { issuer: 'https://id.example.com/#a', jwksUri: jwks('fragment') },
    ];
    const documentOf = async (issuers: typeof entries) => {
      const service = createPlantService({
        store: memoryStore(),
        auth: jwtBearer({ issuers: issuers.map((entry) => ({ ...entry, audience: api })) }),
        resourceMetadata: true,
      });
      const response = await service.fetch(
        new Request('http://localhost/.well-known/oauth-protected-resource'),
      );
      expect(response.status).toBe(200);
      return response.json();
    };
    expect(await documentOf(entries)).toStrictEqual({
      resource: api,
      authorization_servers: [
        'https://login.example.com/tenant-a/v2.0',
        'https://login.example.com/tenant-b/v2.0',
        'http://127.0.0.1:8080',
      ],
      bearer_methods_supported: ['header'],
    });
    // RFC 9728 makes the member optional: with no issuer that qualifies, it is not there at all.
    expect(await documentOf(entries.slice(3, 6))).toStrictEqual({
      resource: api,
      bearer_methods_supported: ['header'],
    });
  });

  it('names the metadata URL in every challenge', async () => {
    const service = createPlantService({
      store: memoryStore(),
      auth: auth(),
      resourceMetadata: true,
    });
    const response = await service.fetch(
      new Request('http://localhost/plants', { method: 'POST' }),
    );
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="plantstore", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/plants"',
    );
  });

  it.each([
    [
      'a resource that is not an audience',
      { resource: 'https://other.example.com/' },
      /must be one of jwtBearer's audiences/,
    ],
    [
      'an http resource off loopback',
      { resource: 'http://api.example.com/plants' },
      /must be an absolute https: URL/,
    ],
    [
      'a resource with a fragment',
      { resource: 'https://api.example.com/plants#x' },
      /without query or fragment/,
    ],
    ['an unknown option', { scopes: ['a'] }, /unknown option "resourceMetadata.scopes"/],
  ])('refuses %s at start-up', (_case, resourceMetadata, message) => {
    expect(() =>
      createPlantService({
        store: memoryStore(),
        auth: auth(),
        resourceMetadata: resourceMetadata as never,
      }),
    ).toThrow(message);
  });

  it.each([
    ['the audience', undefined],
    ['a resource spelt without its trailing slash', 'https://api.example.com/plants'],
  ])(
    'advertises an audience with a trailing slash exactly, so a token asked for it is accepted (from %s)',
    async (_case, resource) => {
      const audience = 'https://api.example.com/plants/';
      const service = createPlantService({
        store: memoryStore(),
        auth: jwtBearer({ secret, issuer: 'https://id.example.com/', audience }),
        publicUrl: 'https://api.example.com',
        resourceMetadata: resource === undefined ? true : { resource },
      });
      expect(service.resourceMetadata?.document['resource']).toBe(audience);
      expect(service.resourceMetadata?.paths).toStrictEqual([
        '/.well-known/oauth-protected-resource/plants',
        '/.well-known/oauth-protected-resource',
      ]);
      const token = await new SignJWT({ sub: 'client' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('https://id.example.com/')
        .setAudience(String(service.resourceMetadata?.document['resource']))
        .setExpirationTime('5m')
        .sign(new TextEncoder().encode(secret));
      const response = await service.fetch(
        new Request('https://api.example.com/plants', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{"id":1,"name":"Fern"}',
        }),
      );
      expect(response.status).toBe(200);
    },
  );

  it('needs a resource when the audience is not one URL', () => {
    expect(() =>
      createPlantService({
        store: memoryStore(),
        auth: jwtBearer({ secret, audience: 'plants' }),
        resourceMetadata: true,
      }),
    ).toThrow(/"resourceMetadata.resource" is required unless jwtBearer has exactly one audience/);
  });
});

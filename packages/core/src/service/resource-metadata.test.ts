import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { memoryStore } from '../plant/memory-store';
import { createPlantService } from './service';

const secret = 'a-secret-that-is-at-least-32-bytes-long';
const auth = (extra: Record<string, unknown> = {}) =>
  jwtBearer({
    secret,
    issuer: 'https://id.example.com/',
    audience: 'https://api.example.com/plants',
    requiredScopes: ['plants:write'],
    ...extra,
  });

describe('RFC 9728 protected-resource metadata', () => {
  it('is built from the configuration that checks tokens, and served at both well-known paths', async () => {
    const service = createPlantService({
      store: memoryStore(),
      auth: auth({ dpop: { required: true, algorithms: ['ES256', 'EdDSA'] } }),
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

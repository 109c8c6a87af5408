import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { memoryStore } from '../plant/memory-store';
import { resourceMetadataRoute } from './resource-metadata-route';
import { createPlantService, type PlantService } from './service';

const service = (resourceMetadata?: true) =>
  createPlantService({
    store: memoryStore(),
    auth: jwtBearer({
      // Published keys: only such an issuer is an authorization server of the metadata.
      jwksUri: 'https://issuer.example/jwks',
      issuer: 'https://issuer.example',
      audience: 'https://api.example.com/plants',
    }),
    resourceMetadata,
  });
const DOCUMENT =
  '{"resource":"https://api.example.com/plants","authorization_servers":["https://issuer.example"],"bearer_methods_supported":["header"]}';

describe('resourceMetadataRoute', () => {
  it('refuses, when mounted, a service without resourceMetadata, and anything but a service', () => {
    expect(() => resourceMetadataRoute(service())).toThrow(
      new TypeError(
        'Plantstore: option "resourceMetadata" must be set on the service (true, or { resource, … }) for protectedResourceMetadata(service) to serve RFC 9728 metadata; received nothing',
      ),
    );
    expect(() => resourceMetadataRoute({} as PlantService)).toThrow(
      new TypeError(
        'Plantstore: option "service" of protectedResourceMetadata(service) must be a service made by createPlantService; received an instance of Object',
      ),
    );
  });

  it('answers both well-known paths by the whole target, query aside, and nothing else', () => {
    const route = resourceMetadataRoute(service(true));
    expect(route.paths).toEqual([
      '/.well-known/oauth-protected-resource/plants',
      '/.well-known/oauth-protected-resource',
    ]);
    const ok = {
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'public, max-age=3600',
      },
      body: DOCUMENT,
    };
    for (const target of [...route.paths, '/.well-known/oauth-protected-resource?x=1']) {
      expect(route.answer('GET', target)).toEqual(ok);
      expect(route.answer('HEAD', target)).toEqual(ok);
    }
    expect(route.answer('POST', '/.well-known/oauth-protected-resource')).toEqual({
      status: 405,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        vary: 'Authorization',
        allow: 'GET, HEAD',
      },
      body: '{"error":405,"message":"Only GET, HEAD are allowed here."}',
      principal: undefined,
    });
    for (const target of [
      '/api/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/',
      '/plants',
    ]) {
      expect(route.answer('GET', target)).toBeUndefined();
    }
  });
});

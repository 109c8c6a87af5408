import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../../jwt/jwt-bearer';
import { memoryReplayStore } from '../../dpop/memory-replay-store';
import { dpopBinding } from '../../dpop/dpop-binding';
import { tokenIntrospection, type TokenIntrospectionOptions } from '../token-introspection';

const base: TokenIntrospectionOptions = {
  issuer: 'https://id.example.com',
  endpoint: 'https://id.example.com/introspect',
  clientId: 'plants-api',
  clientSecret: 'secret',
  audience: 'plants',
};
const build = (options: Record<string, unknown>) => () =>
  tokenIntrospection(options as unknown as TokenIntrospectionOptions);

describe('tokenIntrospection options', () => {
  it('refuses an unknown option, naming the one meant', () => {
    expect(build({ ...base, audiance: 'plants' })).toThrow(
      new TypeError('tokenIntrospection: unknown option "audiance" (did you mean "audience"?)'),
    );
  });

  it('refuses user information in the endpoint or jwksUri, naming the option, never the password', () => {
    const message =
      'option "endpoint" must not hold user information (fetch refuses https://user:password@ URLs; ' +
      'send credentials another way); received a URL with user information for id.example.com';
    expect(build({ ...base, endpoint: 'https://api:hunter2@id.example.com/introspect' })).toThrow(
      `tokenIntrospection: ${message}`,
    );
    expect(() =>
      jwtBearer({
        jwksUri: 'https://api:hunter2@id.example.com/jwks',
        issuer: 'https://id.example.com',
        audience: 'plants',
      }),
    ).toThrow(`jwtBearer: ${message.replace('"endpoint"', '"jwksUri"')}`);
    expect(build({ ...base, endpoint: 'https://api@id.example.com/introspect' })).toThrow(
      'received a URL with user information for id.example.com',
    );
  });

  it('requires audience or clients, as jwtBearer requires an audience for a JWKS', () => {
    expect(build({ ...base, audience: undefined })).toThrow(
      'tokenIntrospection: option "audience" or clients is required; received neither',
    );
    expect(build({ ...base, audience: [] })).toThrow(
      'option "audience" must hold non-empty strings',
    );
  });

  it('requires exactly one of clientSecret and privateKey, and a method that fits it', () => {
    expect(build({ ...base, clientSecret: undefined })).toThrow(
      'tokenIntrospection: option "clientSecret" or privateKey must be given, not both; received neither',
    );
    const { privateKey } = generateKeyPairSync('ed25519');
    expect(build({ ...base, privateKey })).toThrow('not both; received both');
    expect(build({ ...base, clientAuthentication: 'private_key_jwt' })).toThrow(
      '"privateKey" is required by private_key_jwt',
    );
    expect(build({ ...base, clientAuthentication: 'client_secret_jwt' })).toThrow(
      '"clientAuthentication" must be client_secret_basic, client_secret_post or private_key_jwt',
    );
    expect(build({ ...base, clientSecret: undefined, privateKey: 'not a key' })).toThrow(
      'option "privateKey" must be a private RSA, EC (P-256, P-384, P-521) or Ed25519 key',
    );
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(build({ ...base, clientSecret: undefined, privateKey: publicKey })).toThrow(
      '"privateKey"',
    );
  });

  it('refuses an http: endpoint off loopback, and discovery without an issuer URL', () => {
    expect(build({ ...base, endpoint: 'http://id.example.com/introspect' })).toThrow(
      'option "endpoint" must be an https: URL (http: only on a loopback host); received a http: URL for id.example.com',
    );
    expect(build({ ...base, endpoint: undefined, issuer: 'in-house' })).toThrow(
      'option "issuer" must be an issuer URL to discover the endpoint',
    );
  });

  it('refuses bad numbers, cache options and a jwt that is not one', () => {
    expect(build({ ...base, timeoutMs: 0 })).toThrow('option "timeoutMs" must be a whole number');
    expect(build({ ...base, cache: { max: 0 } })).toThrow('option "cache.max"');
    expect(build({ ...base, cache: { maxAge: 1 } })).toThrow('unknown option "cache.maxAge"');
    expect(build({ ...base, jwt: () => undefined })).toThrow(
      'option "jwt" must be what jwtBearer() returns',
    );
  });

  it('refuses a jwt that requires DPoP: opaque tokens would bypass it', () => {
    const jwt = jwtBearer({
      secret: 'a-shared-secret-of-32-bytes-long',
      dpop: dpopBinding({ required: true, replayStore: memoryReplayStore() }),
    });
    expect(build({ ...base, jwt })).toThrow('option "jwt" must not require DPoP or mTLS');
  });

  it('accepts Bearer tokens of its issuer, for its audiences, with its scopes', () => {
    const auth = tokenIntrospection({ ...base, requiredScopes: ['plants:write'] });
    expect(auth.accepts).toStrictEqual({
      bearer: true,
      dpop: undefined,
      mtls: undefined,
      issuers: ['https://id.example.com'],
      authorizationServers: ['https://id.example.com'],
      audiences: ['plants'],
      scopes: ['plants:write'],
    });
  });
});

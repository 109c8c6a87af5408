import { createSecretKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt-bearer';

const SECRET = 'a-shared-secret-of-32-bytes-long';

describe('jwtBearer option checks', () => {
  // Deliberately untyped: these options are what a JavaScript caller or a config file could pass.
  const attempt = (options: Record<string, unknown>) => () => jwtBearer(options as never);
  const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const publicPem = pem.publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const privatePem = pem.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['no key', { issuer: 'x' }, /"secret", "publicKey" and "jwksUri".*none of them/],
    ['two keys', { secret: SECRET, jwksUri: 'https://id.example.com/jwks' }, /secret and jwksUri/],
    ['alg none', { secret: SECRET, algorithms: ['none'] }, /"algorithms".*none/],
    ['alg NoNe', { secret: SECRET, algorithms: ['HS256', 'NoNe'] }, /"algorithms".*none/],
    ['RS256 with a secret', { secret: SECRET, algorithms: ['RS256'] }, /"algorithms".*"RS256"/],
    [
      'HS256 with a public key',
      { publicKey: publicPem, algorithms: ['HS256'] },
      /"algorithms".*ES256/,
    ],
    ['RS256 with an EC key', { publicKey: publicPem, algorithms: ['RS256'] }, /"algorithms"/],
    [
      'HS256 with a JWKS',
      { jwksUri: 'https://id.example.com/j', algorithms: ['HS256'] },
      /"algorithms"/,
    ],
    ['no algorithms', { secret: SECRET, algorithms: [] }, /"algorithms".*non-empty/],
    ['a short secret', { secret: 'short-secret' }, /"secret".*32 bytes.*received 12 bytes/],
    ['a secret of a wrong type', { secret: 42 }, /"secret"/],
    ['an unparsable jwksUri', { jwksUri: 'not a url' }, /"jwksUri"/],
    ['an http: jwksUri', { jwksUri: 'http://id.example.com/jwks' }, /"jwksUri".*https/],
    ['a negative clockTolerance', { secret: SECRET, clockTolerance: -1 }, /"clockTolerance".*-1/],
    [
      'a NaN clockTolerance',
      { secret: SECRET, clockTolerance: Number.NaN },
      /"clockTolerance".*NaN/,
    ],
    ['a bad maxTokenAge', { secret: SECRET, maxTokenAge: 'soon' }, /"maxTokenAge"/],
    ['a negative maxTokenAge', { secret: SECRET, maxTokenAge: -5 }, /"maxTokenAge"/],
    [
      'a bad jwks number',
      { jwksUri: 'https://a.example/j', jwks: { timeoutMs: -1 } },
      /"jwks.timeoutMs"/,
    ],
    [
      'a staleMs below maxAgeMs',
      { jwksUri: 'https://a.example/j', jwks: { staleMs: 1 } },
      /"jwks.staleMs"/,
    ],
    [
      'a jwksUri without issuer',
      { jwksUri: 'https://a.example/j', audience: 'a' },
      /"issuer" is required/,
    ],
    [
      'a jwksUri without audience',
      { jwksUri: 'https://a.example/j', issuer: 'i' },
      /"audience" is required/,
    ],
    ['an unknown jwks option', { jwksUri: 'https://a.example/j', jwks: { ttl: 1 } }, /"jwks.ttl"/],
    ['jwks without jwksUri', { secret: SECRET, jwks: {} }, /"jwks".*jwksUri/],
    [
      'an unknown option',
      { secret: SECRET, audiance: 'x' },
      /unknown option "audiance" \(did you mean "audience"\?\)$/,
    ],
    ['a private PEM', { publicKey: privatePem }, /"publicKey".*private/],
    ['an unreadable PEM', { publicKey: 'garbage' }, /"publicKey".*PEM/],
    [
      'a private JWK',
      { publicKey: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' } },
      /"publicKey"/,
    ],
    ['a broken JWK', { publicKey: { kty: 'EC', crv: 'P-256', x: 'a' } }, /"publicKey".*valid JWK/],
    ['a private KeyObject', { publicKey: pem.privateKey }, /"publicKey".*private key/],
    [
      'a secret KeyObject',
      { publicKey: createSecretKey(Buffer.from(SECRET)) },
      /"publicKey".*secret key/,
    ],
    ['a scope with a space', { secret: SECRET, requiredScopes: ['a b'] }, /"requiredScopes"/],
    ['an empty issuer', { secret: SECRET, issuer: '' }, /"issuer"/],
    ['an empty audience list', { secret: SECRET, audience: [] }, /"audience"/],
    ['an audience of a wrong type', { secret: SECRET, audience: [1] }, /"audience"/],
    ['a fetch that is not a function', { jwksUri: 'https://a.example/j', fetch: 1 }, /"fetch"/],
  ])('throws a TypeError naming the option for %s', (_case, options, message) => {
    expect(attempt(options)).toThrow(TypeError);
    expect(attempt(options)).toThrow(message);
  });

  it('never prints the secret in its message', () => {
    expect(attempt({ secret: 'hunter2-is-secret' })).toThrow(/^(?!.*hunter2).*$/s);
  });

  it('refuses an RSA key under 2048 bits', () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(attempt({ publicKey })).toThrow(/"publicKey".*2048/);
  });

  it('accepts an http: jwksUri on a loopback host', () => {
    const checks = { issuer: 'https://id.example.com/', audience: 'plants' };
    expect(attempt({ ...checks, jwksUri: 'http://127.0.0.1:1/jwks' })).not.toThrow();
    expect(attempt({ ...checks, jwksUri: new URL('http://localhost:1/jwks') })).not.toThrow();
    expect(attempt({ ...checks, jwksUri: 'http://[::1]:1/jwks' })).not.toThrow();
  });

  it('takes a maxTokenAge in seconds or as a duration, and defaults the algorithms to the key', () => {
    expect(() => jwtBearer({ secret: SECRET, maxTokenAge: '2 hours' })).not.toThrow();
    expect(() => jwtBearer({ secret: SECRET, maxTokenAge: '1.5h' })).not.toThrow();
    expect(() => jwtBearer({ secret: SECRET, maxTokenAge: 300 })).not.toThrow();
    expect(() => jwtBearer({ secret: 'x'.repeat(48), algorithms: ['HS384'] })).not.toThrow();
    expect(() => jwtBearer({ secret: SECRET, algorithms: ['HS384'] })).toThrow(
      /"algorithms".*HS256/,
    );
  });
});

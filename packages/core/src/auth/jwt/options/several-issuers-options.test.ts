import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt-bearer';
import { resolveJwtBearerOptions } from './jwt-bearer-options';

const SECRET = 'a-shared-secret-of-32-bytes-long';
const JWKS = 'https://a.example/.well-known/jwks.json';
const a = { issuer: 'https://a.example/', jwksUri: JWKS, audience: 'https://api.example' };
const b = { issuer: 'legacy', secret: SECRET, audience: 'plants' };

describe('jwtBearer({ issuers }) option checks', () => {
  // Deliberately untyped: these options are what a JavaScript caller or a config file could pass.
  const attempt = (options: Record<string, unknown>) => () => jwtBearer(options as never);
  const privatePem = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'issuers that is not an array',
      { issuers: a },
      /"issuers" must be an array of 1 to 100.*an instance of Object/,
    ],
    ['no issuers', { issuers: [] }, /"issuers" must be an array of 1 to 100.*0 items/],
    ['101 issuers', { issuers: Array.from({ length: 101 }, () => b) }, /"issuers".*101 items/],
    [
      'an entry that is not an object',
      { issuers: [a, 'legacy'] },
      /"issuers\[1\]" must be an object/,
    ],
    [
      'a misspelt name in an entry',
      { issuers: [a, { ...b, audiance: 'x' }] },
      /unknown option "issuers\[1\]\.audiance" \(did you mean "issuers\[1\]\.audience"\?\)$/,
    ],
    [
      'requiredScopes in an entry',
      { issuers: [{ ...b, requiredScopes: ['a'] }] },
      /unknown option "issuers\[0\]\.requiredScopes"$/,
    ],
    [
      'an entry without issuer',
      { issuers: [{ secret: SECRET }] },
      /"issuers\[0\]\.issuer" must be one non-empty string; received undefined/,
    ],
    [
      'an entry with an issuer list',
      { issuers: [{ ...b, issuer: ['x', 'y'] }] },
      /"issuers\[0\]\.issuer" must be one non-empty string/,
    ],
    ['an empty issuer', { issuers: [{ ...b, issuer: '' }] }, /"issuers\[0\]\.issuer"/],
    [
      'the same issuer twice on one JWKS',
      { issuers: [a, b, { ...a, audience: 'other' }] },
      /"issuers\[2\]\.jwksUri" must differ from every other entry's of the same issuer: give one entry a list of audiences; received https:/,
    ],
    [
      'an entry without a key',
      { issuers: [a, { issuer: 'x' }] },
      /exactly one of the options "issuers\[1\]\.secret", "issuers\[1\]\.publicKey" and "issuers\[1\]\.jwksUri" is required; received none of them/,
    ],
    [
      'an entry with two keys',
      { issuers: [{ ...a, secret: SECRET }] },
      /"issuers\[0\]\.secret".*received secret and jwksUri/,
    ],
    [
      'a JWKS entry without audience',
      { issuers: [{ issuer: 'x', jwksUri: JWKS }] },
      /"issuers\[0\]\.audience" is required \(or "clients", where tokens name no aud\) with jwksUri/,
    ],
    [
      'a shared profile and an entry without audience',
      { profile: 'rfc9068', issuers: [{ issuer: 'x', secret: SECRET }] },
      /"issuers\[0\]\.audience" is required \(or "clients", where tokens name no aud\) with profile "rfc9068"/,
    ],
    [
      'an entry algorithm that does not fit its key',
      { issuers: [a, { ...b, algorithms: ['RS256'] }] },
      /"issuers\[1\]\.algorithms" must only hold what fits a secret of this length: HS256; received "RS256"/,
    ],
    [
      'HS256 for a JWKS entry',
      { issuers: [{ ...a, algorithms: ['HS256'] }] },
      /"issuers\[0\]\.algorithms".*a JWKS/,
    ],
    [
      'alg none in an entry',
      { issuers: [{ ...b, algorithms: ['none'] }] },
      /"issuers\[0\]\.algorithms" must never allow none/,
    ],
    [
      'a short secret in an entry',
      { issuers: [{ ...b, secret: 'short' }] },
      /"issuers\[0\]\.secret" must be at least 32 bytes/,
    ],
    [
      'a private key in an entry',
      { issuers: [{ issuer: 'x', publicKey: privatePem }] },
      /"issuers\[0\]\.publicKey" must be a public key/,
    ],
    [
      'an http: jwksUri in an entry',
      { issuers: [{ ...a, jwksUri: 'http://a.example/j' }] },
      /"issuers\[0\]\.jwksUri" must be an https: URL/,
    ],
    [
      'a bad jwks number in an entry',
      { issuers: [{ ...a, jwks: { timeoutMs: -1 } }] },
      /"issuers\[0\]\.jwks\.timeoutMs"/,
    ],
    [
      'an unknown jwks option in an entry',
      { issuers: [{ ...a, jwks: { ttl: 1 } }] },
      /unknown option "issuers\[0\]\.jwks\.ttl"/,
    ],
    [
      'a staleMs below maxAgeMs in an entry',
      { issuers: [{ ...a, jwks: { staleMs: 1 } }] },
      /"issuers\[0\]\.jwks\.staleMs" must not be less than issuers\[0\]\.jwks\.maxAgeMs/,
    ],
    [
      'jwks in a secret entry',
      { issuers: [{ ...b, jwks: {} }] },
      /"issuers\[0\]\.jwks" applies only with jwksUri/,
    ],
    ['a bad typ in an entry', { issuers: [{ ...b, typ: [] }] }, /"issuers\[0\]\.typ"/],
    [
      'typ and profile in one entry',
      { issuers: [{ ...b, typ: 'JWT', profile: 'rfc9068' }] },
      /"issuers\[0\]\.typ" is set by profile/,
    ],
    [
      'a bad scopeClaims in an entry',
      { issuers: [{ ...b, scopeClaims: 'a b' }] },
      /"issuers\[0\]\.scopeClaims"/,
    ],
    [
      'a bad maxTokenAge in an entry',
      { issuers: [{ ...b, maxTokenAge: 'soon' }] },
      /"issuers\[0\]\.maxTokenAge"/,
    ],
    [
      'a bad requiredClaims in an entry',
      { issuers: [{ ...b, requiredClaims: [''] }] },
      /"issuers\[0\]\.requiredClaims"/,
    ],
    ['a bad shared scopeClaims', { scopeClaims: [], issuers: [b] }, /option "scopeClaims" must be/],
    ['a bad shared maxTokenAge', { maxTokenAge: -1, issuers: [b] }, /option "maxTokenAge" must be/],
    [
      'a bad shared requiredClaims',
      { requiredClaims: 5, issuers: [b] },
      /option "requiredClaims" must hold/,
    ],
    [
      'a fetch without any JWKS',
      { fetch: globalThis.fetch, issuers: [b] },
      /"fetch" applies only with jwksUri/,
    ],
  ])('throws a TypeError naming the option for %s', (_case, options, message) => {
    expect(attempt(options)).toThrow(TypeError);
    expect(attempt(options)).toThrow(message);
  });

  it.each(['secret', 'publicKey', 'jwksUri', 'issuer', 'audience', 'algorithms', 'jwks'])(
    'refuses a top-level %s with issuers: it is set per issuer',
    (option) => {
      const options = { issuers: [b], [option]: option === 'algorithms' ? ['HS256'] : 'x' };
      expect(attempt(options)).toThrow(TypeError);
      expect(attempt(options)).toThrow(
        new RegExp(
          `^jwtBearer: option "${option}" cannot be used with "issuers": set it per issuer`,
        ),
      );
    },
  );

  it("never prints an entry's secret in its message", () => {
    expect(attempt({ issuers: [{ ...b, secret: 'hunter2-is-secret' }] })).toThrow(
      /^(?!.*hunter2).*$/s,
    );
  });

  it('names issuers in the message for a single issuer without a key', () => {
    expect(attempt({ audience: 'x' })).toThrow(
      /"jwksUri" \(or "issuers", for several issuers\) is required/,
    );
  });

  it('takes 100 issuers', () => {
    const issuers = Array.from({ length: 100 }, (_, index) => ({ ...b, issuer: `i${index}` }));
    expect(resolveJwtBearerOptions({ issuers }).verifiers).toHaveLength(100);
  });
});

describe('the resolved config of jwtBearer', () => {
  it('lists every issuer and audience, each once, for the metadata of the resource', () => {
    const config = resolveJwtBearerOptions({
      issuers: [a, { ...b, audience: ['plants', a.audience] }],
    });
    expect(config.selectByIssuer).toBe(true);
    expect(config.issuers).toEqual(['https://a.example/', 'legacy']);
    expect(config.audiences).toEqual(['https://api.example', 'plants']);
    expect(config.verifiers.map((verifier) => verifier.issuer)).toEqual(config.issuers);
  });

  it('lists the issuers and audiences of a single issuer, and none where none are checked', () => {
    const one = resolveJwtBearerOptions({ secret: SECRET, issuer: ['x', 'y'], audience: 'plants' });
    expect(one).toMatchObject({
      selectByIssuer: false,
      issuers: ['x', 'y'],
      audiences: ['plants'],
    });
    expect(one.verifiers).toHaveLength(1);
    expect(one.verifiers[0].issuer).toBeUndefined();
    const unchecked = resolveJwtBearerOptions({ secret: SECRET });
    expect(unchecked).toMatchObject({ issuers: [], audiences: [] });
  });

  it('gives each entry the shared defaults it does not replace', () => {
    const config = resolveJwtBearerOptions({
      profile: 'rfc9068',
      scopeClaims: ['permissions'],
      maxTokenAge: '1 hour',
      clockTolerance: 10,
      issuers: [a, { ...b, typ: 'JWT', scopeClaims: ['roles'], requiredClaims: ['sub'] }],
    });
    const [first, second] = config.verifiers;
    expect(first.acceptedTypes).toEqual(['at+jwt']);
    expect(first.scopeClaims).toEqual(['permissions']);
    expect(first.verifyOptions).toMatchObject({
      issuer: ['https://a.example/'],
      audience: ['https://api.example'],
      clockTolerance: 10,
      maxTokenAge: 3600,
      requiredClaims: ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'],
    });
    // typ replaces the shared profile, and with it the profile's claims.
    expect(second?.acceptedTypes).toEqual(['jwt']);
    expect(second?.scopeClaims).toEqual(['roles']);
    expect(second?.verifyOptions).toMatchObject({
      issuer: ['legacy'],
      algorithms: ['HS256'],
      requiredClaims: ['sub'],
      maxTokenAge: 3600,
    });
  });
});

import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer, type JwtBearerOptions } from './jwt-bearer';
import { createTokenIssuer, type TokenIssuer } from '../../testing/token-issuer';

// Entra ID's multi-tenant apps: every tenant's tokens are signed by the common keys, and name their
// tenant in `iss` and in `tid`. Microsoft's guidance (https://learn.microsoft.com/en-us/entra/identity-platform/access-tokens#validate-the-issuer):
// the issuer in the metadata is a template, `https://login.microsoftonline.com/{tenantid}/v2.0`,
// whose `{tenantid}` must equal the token's `tid`.
const TEMPLATE = 'https://login.microsoftonline.com/{tenantid}/v2.0';
const CONTOSO = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const FABRIKAM = '9188040d-6c67-4c5b-b112-36a304b66dad';
const API = '6e74172b-be56-4843-9ff4-e66a39bb12e3';
const issuerOf = (tid: string) => `https://login.microsoftonline.com/${tid}/v2.0`;

describe('tenant-templated issuers', () => {
  let common: TokenIssuer;
  let options: { jwksUri: string; issuer: string; tenants: readonly string[]; audience: string };
  beforeAll(async () => {
    common = await createTokenIssuer({ audience: API });
    options = { jwksUri: common.jwksUri, issuer: TEMPLATE, tenants: [CONTOSO], audience: API };
  });
  afterAll(() => common.close());

  const outcome = async (auth: JwtBearerOptions, claims: Record<string, unknown>) =>
    jwtBearer(auth)
      .verify(await common.sign(claims))
      .then(
        (principal) => `accepted ${String(principal.claims['tid'])}`,
        (error: { code: string }) => error.code,
      );

  it.each<[string, Record<string, unknown>, string]>([
    ["an accepted tenant's token", { iss: issuerOf(CONTOSO), tid: CONTOSO }, `accepted ${CONTOSO}`],
    ["another tenant's token", { iss: issuerOf(FABRIKAM), tid: FABRIKAM }, 'issuer_mismatch'],
    [
      'an iss naming an accepted tenant, tid another',
      { iss: issuerOf(CONTOSO), tid: FABRIKAM },
      'issuer_mismatch',
    ],
    ['no tid', { iss: issuerOf(CONTOSO), tid: undefined }, 'issuer_mismatch'],
    [
      'a v1.0 issuer',
      { iss: `https://sts.windows.net/${CONTOSO}/`, tid: CONTOSO },
      'issuer_mismatch',
    ],
    [
      'a tenant segment with a slash',
      { iss: issuerOf(`${CONTOSO}/x`), tid: `${CONTOSO}/x` },
      'issuer_mismatch',
    ],
    ['the template itself', { iss: TEMPLATE, tid: '{tenantid}' }, 'issuer_mismatch'],
    [
      'another audience',
      { iss: issuerOf(CONTOSO), tid: CONTOSO, aud: 'api://other' },
      'audience_mismatch',
    ],
  ])('%s', async (_name, claims, expected) => {
    expect(await outcome(options, claims)).toBe(expected);
  });

  it('refuses before any key is fetched', async () => {
    const before = common.requests;
    expect(await outcome(options, { iss: issuerOf(FABRIKAM), tid: FABRIKAM })).toBe(
      'issuer_mismatch',
    );
    expect(common.requests).toBe(before);
  });

  it('takes a predicate, a claim of another name, and templates among exact issuers', async () => {
    const predicate = { ...options, tenants: (id: string) => id === FABRIKAM };
    expect(await outcome(predicate, { iss: issuerOf(FABRIKAM), tid: FABRIKAM })).toBe(
      `accepted ${FABRIKAM}`,
    );
    expect(await outcome(predicate, { iss: issuerOf(CONTOSO), tid: CONTOSO })).toBe(
      'issuer_mismatch',
    );
    const claim = { ...options, tenantClaim: 'tenant' };
    expect(await outcome(claim, { iss: issuerOf(CONTOSO), tenant: CONTOSO })).toBe(
      'accepted undefined',
    );
    const several: JwtBearerOptions = {
      issuers: [
        { issuer: common.issuer, jwksUri: common.jwksUri, audience: API },
        { issuer: TEMPLATE, jwksUri: common.jwksUri, audience: API, tenants: [CONTOSO, FABRIKAM] },
        {
          issuer: 'https://sts.windows.net/{tenantid}/',
          jwksUri: common.jwksUri,
          audience: API,
          tenants: [CONTOSO],
        },
      ],
    };
    expect(await outcome(several, {})).toBe('accepted undefined');
    expect(await outcome(several, { iss: issuerOf(FABRIKAM), tid: FABRIKAM })).toBe(
      `accepted ${FABRIKAM}`,
    );
    expect(
      await outcome(several, { iss: `https://sts.windows.net/${CONTOSO}/`, tid: CONTOSO }),
    ).toBe(`accepted ${CONTOSO}`);
    expect(
      await outcome(several, { iss: `https://sts.windows.net/${FABRIKAM}/`, tid: FABRIKAM }),
    ).toBe('issuer_mismatch');
    expect(jwtBearer(several).accepts.issuers).toStrictEqual([
      common.issuer,
      issuerOf(CONTOSO),
      issuerOf(FABRIKAM),
      `https://sts.windows.net/${CONTOSO}/`,
    ]);
    expect(jwtBearer({ ...options, tenants: () => true }).accepts.issuers).toStrictEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'a template without tenants',
      { tenants: undefined },
      '"tenants" must be a non-empty list of tenant ids',
    ],
    ['an empty allow-list', { tenants: [] }, '"tenants" must be a non-empty list of tenant ids'],
    [
      'a tenant id with a slash',
      { tenants: ['a/b'] },
      '"tenants" must be a non-empty list of tenant ids',
    ],
    [
      'tenants without a template',
      { issuer: 'https://id.example/' },
      '"tenants" applies only to an issuer with {tenantid}',
    ],
    [
      'the placeholder twice',
      { issuer: `${TEMPLATE}/{tenantid}` },
      '"issuer" must hold {tenantid} once',
    ],
    [
      'a template in a list',
      { issuer: [TEMPLATE, 'https://id.example/'] },
      '"issuer" with {tenantid} must be one string',
    ],
    ['a bad tenantClaim', { tenantClaim: '' }, '"tenantClaim" must be a claim name'],
  ])('fails at start-up for %s', (_name, change, message) => {
    expect(() => jwtBearer({ ...options, ...change })).toThrow(message);
  });
});

describe('several key sources for one issuer (Supabase: a legacy HS256 secret beside its JWKS)', () => {
  const ISSUER = 'https://abcdefghijklmnopqrst.supabase.co/auth/v1';
  const LEGACY = 'super-secret-jwt-token-with-at-least-32-characters-long';
  let current: TokenIssuer;
  let next: TokenIssuer;
  let options: JwtBearerOptions;
  beforeAll(async () => {
    [current, next] = await Promise.all([
      createTokenIssuer({ algorithm: 'ES256', issuer: ISSUER, audience: 'authenticated' }),
      createTokenIssuer({ algorithm: 'RS256', issuer: ISSUER, audience: 'authenticated' }),
    ]);
    options = {
      issuers: [
        { issuer: ISSUER, secret: LEGACY, algorithms: ['HS256'], audience: 'authenticated' },
        { issuer: ISSUER, jwksUri: current.jwksUri, audience: 'authenticated' },
        { issuer: ISSUER, jwksUri: next.jwksUri, audience: 'authenticated' },
      ],
    };
  });
  afterAll(async () => Promise.all([current.close(), next.close()]));

  const legacy = (claims: Record<string, unknown> = {}) =>
    new SignJWT({
      iss: ISSUER,
      aud: 'authenticated',
      sub: 'u1',
      exp: Math.floor(Date.now() / 1000) + 60,
      ...claims,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(LEGACY));
  const outcome = async (auth: JwtBearerOptions, token: Promise<string>) =>
    jwtBearer(auth)
      .verify(await token)
      .then(
        (principal) => `accepted ${String(principal.subject)}`,
        (error: { code: string }) => error.code,
      );

  it.each<[string, () => Promise<string>, string]>([
    ['a legacy HS256 token', () => legacy(), 'accepted u1'],
    ["the current key set's ES256 token", () => current.sign(), 'accepted test-user'],
    ["the next key set's RS256 token", () => next.sign(), 'accepted test-user'],
    [
      'an ES256 token of a key in neither set',
      () => current.sign({}, { key: 'unpublished' }),
      'key_not_found',
    ],
    ['a legacy token for another audience', () => legacy({ aud: 'anon' }), 'audience_mismatch'],
    [
      'an expired token of the current set',
      () => current.sign({}, { expiresIn: -60 }),
      'token_expired',
    ],
  ])('%s', async (_name, sign, expected) => {
    expect(await outcome(options, sign())).toBe(expected);
  });

  it('tries a key only for the algorithms it fits, and refuses an alg no entry takes', async () => {
    const hsOnly: JwtBearerOptions = {
      issuers: [
        { issuer: ISSUER, secret: LEGACY, algorithms: ['HS256'], audience: 'authenticated' },
      ],
    };
    const before = current.requests + next.requests;
    expect(await outcome(hsOnly, current.sign())).toBe('algorithm_not_allowed');
    expect(await outcome(options, legacy())).toBe('accepted u1');
    expect(current.requests + next.requests).toBe(before);
  });

  it('refuses one issuer named twice with one jwksUri', () => {
    const twice = {
      issuer: ISSUER,
      jwksUri: 'https://abcdefghijklmnopqrst.supabase.co/auth/v1/.well-known/jwks.json',
      audience: 'authenticated',
    };
    expect(() => jwtBearer({ issuers: [twice, { ...twice, audience: 'anon' }] })).toThrow(
      'jwtBearer: option "issuers[1].jwksUri" must differ from every other entry\'s of the same issuer',
    );
  });
});

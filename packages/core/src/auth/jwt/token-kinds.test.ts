import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer, type JwtBearerOptions } from './jwt-bearer';
import { ID_TOKENS_ACCEPTED } from './options/preset-keys';

// ID tokens presented as bearer tokens, and providers whose access tokens name a client instead of
// an audience. Claims follow each provider's documented tokens: OpenID Connect Core §2 (nonce,
// at_hash, c_hash), FAPI 1.0 §5.2.2.1 (s_hash), Keycloak's `typ` "ID"/"Bearer", AWS Cognito's
// `token_use` "id"/"access" and `client_id`
// (https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-access-token.html),
// Clerk's `azp` (https://clerk.com/docs/backend-requests/resources/session-tokens).

const SECRET = 'a-shared-secret-of-32-bytes-long';
const key = new TextEncoder().encode(SECRET);
const now = () => Math.floor(Date.now() / 1000);
// `undefined` removes a claim the token would otherwise carry.
type Claims = Record<string, unknown>;
const base = { secret: SECRET, issuer: 'urn:issuer', audience: 'urn:api' } as const;

async function token(extra: Claims): Promise<string> {
  const payload = { iss: 'urn:issuer', aud: 'urn:api', sub: 'alice', iat: now(), exp: now() + 60 };
  return new SignJWT({ ...payload, ...extra }).setProtectedHeader({ alg: 'HS256' }).sign(key);
}

/** `accepted`, or the refusal's status and code. */
async function outcome(options: JwtBearerOptions, extra: Claims): Promise<string> {
  return jwtBearer(options)
    .verify(await token(extra))
    .then(
      () => 'accepted',
      (error: { status: number; code: string }) => `${error.status} ${error.code}`,
    );
}

describe('ID tokens are refused as bearer tokens by default', () => {
  it.each<[string, Claims, string]>([
    ['an OIDC ID token (nonce)', { nonce: 'n-0S6_WzA2Mj' }, '401 token_type_mismatch'],
    [
      'an OIDC ID token (at_hash)',
      { at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q' },
      '401 token_type_mismatch',
    ],
    [
      'a hybrid-flow ID token (c_hash)',
      { c_hash: 'LDktKdoQak3Pk0cnXxCltA' },
      '401 token_type_mismatch',
    ],
    ['a FAPI ID token (s_hash)', { s_hash: 'x8bpmjwjxYCH9vhzxUS4lg' }, '401 token_type_mismatch'],
    ["Keycloak's ID token (typ ID)", { typ: 'ID', azp: 'web' }, '401 token_type_mismatch'],
    ["Cognito's ID token (token_use id)", { token_use: 'id' }, '401 token_type_mismatch'],
    [
      "Keycloak's access token (typ Bearer), nonce and all",
      { typ: 'Bearer', nonce: 'n' },
      'accepted',
    ],
    ["Cognito's access token (token_use access)", { token_use: 'access' }, 'accepted'],
    ["Keycloak's DPoP-bound access token (typ DPoP)", { typ: 'DPoP' }, 'accepted'],
    ["Keycloak's refresh token (typ Refresh)", { typ: 'Refresh' }, '401 token_type_mismatch'],
    ["Keycloak's offline token (typ Offline)", { typ: 'Offline' }, '401 token_type_mismatch'],
    [
      "Hydra's refresh token (token_use refresh_token)",
      { token_use: 'refresh_token' },
      '401 token_type_mismatch',
    ],
    ['an access token with none of these', { scope: 'plants:write' }, 'accepted'],
  ])('%s: %s', async (_name, claims, expected) => {
    expect(await outcome(base, claims)).toBe(expected);
  });

  it('refuses an ID token as one even where a claim check fails first', async () => {
    const options = { ...base, requiredClaims: ['client_id'] };
    expect(await outcome(options, { token_use: 'id' })).toBe('401 token_type_mismatch');
    expect(await outcome(options, {})).toBe('401 claim_missing');
  });

  it('accepts ID tokens only with the key a provider preset sets (Firebase), never by a named option', async () => {
    const preset = { [ID_TOKENS_ACCEPTED]: true } as const;
    const idToken = { nonce: 'n', at_hash: 'h' };
    expect(await outcome({ ...base, ...preset }, idToken)).toBe('accepted');
    const entry = { issuer: 'urn:issuer', secret: SECRET, audience: 'urn:api' };
    expect(await outcome({ issuers: [{ ...entry, ...preset }] }, idToken)).toBe('accepted');
    expect(await outcome({ issuers: [entry], ...preset }, idToken)).toBe('accepted');
    expect(await outcome({ issuers: [entry] }, idToken)).toBe('401 token_type_mismatch');
    expect(() => jwtBearer({ ...base, idTokens: true } as JwtBearerOptions)).toThrow(
      'jwtBearer: unknown option "idTokens"',
    );
  });
});

describe('clients: the client a token was issued to, where it names no audience', () => {
  const cognito = { secret: SECRET, issuer: 'urn:issuer', clients: ['app-1', 'app-2'] } as const;

  it.each<[string, Claims, string]>([
    [
      "Cognito's access token of an accepted client",
      { client_id: 'app-2', aud: undefined },
      'accepted',
    ],
    ["Clerk's session token (azp)", { azp: 'app-1', aud: undefined }, 'accepted'],
    ['a token of another client', { client_id: 'app-3' }, '401 client_mismatch'],
    ['another azp', { azp: 'https://evil.example' }, '401 client_mismatch'],
    ['client_id decides over azp', { client_id: 'app-3', azp: 'app-1' }, '401 client_mismatch'],
    ['a client_id that is not a string', { client_id: ['app-1'] }, '401 client_mismatch'],
    ['a token naming no client', {}, '401 claim_missing'],
  ])('%s', async (_name, claims, expected) => {
    expect(await outcome(cognito, claims)).toBe(expected);
  });

  it('checks the audience too when both are given', async () => {
    const both = { ...cognito, audience: 'urn:api' };
    expect(await outcome(both, { client_id: 'app-1' })).toBe('accepted');
    expect(await outcome(both, { client_id: 'app-1', aud: 'urn:other' })).toBe(
      '401 audience_mismatch',
    );
  });

  it('counts as the audience check a JWKS needs, and a JWKS with neither still fails to start', () => {
    const jwks = { jwksUri: 'https://id.example/jwks', issuer: 'https://id.example' } as const;
    expect(() => jwtBearer({ ...jwks, clients: 'app-1' })).not.toThrow();
    expect(() => jwtBearer(jwks as JwtBearerOptions)).toThrow(
      'jwtBearer: option "audience" is required (or "clients", where tokens name no aud) with jwksUri (tokens for other APIs of the same provider would pass); received nothing',
    );
    expect(() => jwtBearer({ ...jwks, clients: [] })).toThrow(
      'jwtBearer: option "clients" must hold non-empty strings; received an array of 0 items',
    );
  });
});

describe('tokens up to 16 KiB (an Entra ID token with 200 groups is about 11.7 KB)', () => {
  it('accepts a token of 200 group ids and refuses one past 16 KiB', async () => {
    const groups = (count: number) =>
      Array.from(
        { length: count },
        (_, i) => `${String(i).padStart(8, '0')}-6c67-4c5b-b112-36a304b66dad`,
      );
    const large = await token({ groups: groups(200) });
    expect(large.length).toBeGreaterThan(8_192);
    expect(await outcome(base, { groups: groups(200) })).toBe('accepted');
    const tooLarge = await token({ groups: groups(400) });
    expect(tooLarge.length).toBeGreaterThan(16_384);
    expect(await outcome(base, { groups: groups(400) })).toBe('401 token_too_large');
  });
});

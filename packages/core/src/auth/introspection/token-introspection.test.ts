import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt/jwt-bearer';
import { tokenIntrospection } from './token-introspection';
import {
  optionsFor,
  useIntrospectionEndpoint,
  type OptionChanges,
} from './introspection-endpoint.test-support';

const endpoint = useIntrospectionEndpoint();

const API = 'https://plants.example.com';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;
const options = (changes: OptionChanges = {}) =>
  optionsFor(endpoint(), { audience: 'https://plants.example.com', cache: false, ...changes });
/** An answer that passes every check of {@link options}. */
const good = (claims: Record<string, unknown> = {}) => ({
  sub: 'alice',
  iss: endpoint().issuer,
  aud: 'https://plants.example.com',
  client_id: 'plants-writer',
  scope: 'plants:read plants:write',
  token_type: 'Bearer',
  exp: inAnHour(),
  ...claims,
});

const refusal = (promise: Promise<unknown>): Promise<Record<string, unknown>> =>
  promise.then(
    () => ({}),
    (error: unknown) => error as Record<string, unknown>,
  );

describe('tokenIntrospection accepts an active token', () => {
  it('resolves sub, the scope string and the whole answer as claims', async () => {
    const answer = good();
    endpoint().answers.set('opaque-1', answer);
    const principal = await tokenIntrospection(options()).verify('opaque-1');
    expect(principal).toStrictEqual({
      subject: 'alice',
      scopes: ['plants:read', 'plants:write'],
      claims: { active: true, ...answer },
    });
    expect(Object.isFrozen(principal.claims)).toBe(true);
  });

  it('leaves subject undefined without sub: a client id is not a user', async () => {
    endpoint().answers.set('opaque-1', good({ sub: undefined }));
    const principal = await tokenIntrospection(options()).verify('opaque-1');
    expect(principal.subject).toBeUndefined();
    expect(principal.claims['client_id']).toBe('plants-writer');
  });

  it('sends client_secret_basic: a form-encoded pair in Authorization, the token and its hint', async () => {
    endpoint().answers.set('opaque-1', good());
    await tokenIntrospection(options()).verify('opaque-1');
    const [request] = endpoint().requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/introspect');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.headers['accept']).toBe('application/json');
    const pair = Buffer.from('plants-api:a+secret%3Awith%2Fodd%2Bchars').toString('base64');
    expect(request?.headers['authorization']).toBe(`Basic ${pair}`);
    expect([...(request?.form ?? [])]).toStrictEqual([
      ['token', 'opaque-1'],
      ['token_type_hint', 'access_token'],
    ]);
  });

  it('sends client_secret_post: the id and secret in the form, no Authorization', async () => {
    endpoint().answers.set('opaque-1', good());
    await tokenIntrospection(options({ clientAuthentication: 'client_secret_post' })).verify(
      'opaque-1',
    );
    const [request] = endpoint().requests;
    expect(request?.headers['authorization']).toBeUndefined();
    expect([...(request?.form ?? [])]).toStrictEqual([
      ['token', 'opaque-1'],
      ['token_type_hint', 'access_token'],
      ['client_id', 'plants-api'],
      ['client_secret', 'a secret:with/odd+chars'],
    ]);
  });

  it('sends private_key_jwt: a fresh RFC 7523 assertion for the issuer, signed with the key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'introspection-key' };
    endpoint().answers.set('opaque-1', good());
    const auth = tokenIntrospection(options({ clientSecret: undefined, privateKey: jwk }));
    await auth.verify('opaque-1');
    await auth.verify('opaque-1');
    const [first, second] = endpoint().requests;
    expect(first?.headers['authorization']).toBeUndefined();
    expect(first?.form.get('client_id')).toBe('plants-api');
    expect(first?.form.get('client_assertion_type')).toBe(
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const assertion = first?.form.get('client_assertion') ?? '';
    const { payload, protectedHeader } = await jwtVerify(assertion, publicKey, {
      issuer: 'plants-api',
      subject: 'plants-api',
      audience: endpoint().issuer,
    });
    expect(protectedHeader).toStrictEqual({ alg: 'ES256', kid: 'introspection-key' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    const again = second?.form.get('client_assertion') ?? '';
    expect((await jwtVerify(again, publicKey)).payload.jti).not.toBe(payload.jti);
  });

  it('accepts a listed client without audience, reading azp when there is no client_id', async () => {
    endpoint().answers.set(
      'opaque-1',
      good({ aud: undefined, client_id: undefined, azp: 'web-app' }),
    );
    const auth = tokenIntrospection(options({ audience: undefined, clients: ['web-app'] }));
    await expect(auth.verify('opaque-1')).resolves.toMatchObject({ subject: 'alice' });
  });

  it('sends a JWT-shaped token to jwt, never to the endpoint, and refuses a forged one there', async () => {
    const secret = 'a-shared-secret-of-32-bytes-long';
    const jwt = jwtBearer({ secret, issuer: 'urn:in-house', audience: API });
    const auth = tokenIntrospection(options({ jwt }));
    const token = await new SignJWT({ sub: 'svc', aud: API, iss: 'urn:in-house' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(secret));
    await expect(auth.verify(token)).resolves.toMatchObject({ subject: 'svc' });
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(43)}`;
    await expect(auth.verify(forged)).rejects.toMatchObject({ code: 'signature_invalid' });
    expect(endpoint().requests).toHaveLength(0);
    expect(auth.accepts).toStrictEqual({
      bearer: true,
      dpop: undefined,
      mtls: undefined,
      issuers: [endpoint().issuer, 'urn:in-house'],
      authorizationServers: [endpoint().issuer],
      audiences: [API],
      scopes: [],
    });
  });
});

describe('tokenIntrospection refuses, as it refuses a JWT', () => {
  const cases: [string, Record<string, unknown> | undefined, string][] = [
    ['an inactive token', undefined, 'token_inactive'],
    ['an expired one', { exp: inAnHour() - 7200 }, 'token_expired'],
    ['one not yet valid', { nbf: inAnHour() }, 'token_not_yet_valid'],
    ['one of another issuer', { iss: 'https://other.example.com' }, 'issuer_mismatch'],
    ['one for another API', { aud: ['https://pots.example.com'] }, 'audience_mismatch'],
    ['one without aud', { aud: undefined }, 'audience_mismatch'],
    ['a refresh token', { token_type: 'refresh_token' }, 'token_type_mismatch'],
    [
      "Hydra's refresh token",
      { token_type: undefined, token_use: 'refresh_token' },
      'token_type_mismatch',
    ],
    ['a DPoP-bound token', { cnf: { jkt: 'x' }, token_type: 'DPoP' }, 'token_dpop_bound'],
    ['a key-bound Bearer token', { cnf: { jkt: 'x' } }, 'token_dpop_bound'],
    ['a certificate-bound one', { cnf: { 'x5t#S256': 'x' } }, 'token_certificate_bound'],
    ['a sub that is not text', { sub: 42 }, 'claim_invalid'],
    ['an exp that is not a number', { exp: 'tomorrow' }, 'claim_invalid'],
    ['a scope that is a list', { scope: ['plants:write'] }, 'claim_invalid'],
    // Keycloak before it sent token_type (keycloak#21919) answers its other tokens with their `typ`.
    ["Keycloak's ID token", { token_type: undefined, typ: 'ID' }, 'token_type_mismatch'],
    ["Keycloak's refresh token", { token_type: undefined, typ: 'Refresh' }, 'token_type_mismatch'],
    ["Keycloak's offline token", { token_type: undefined, typ: 'Offline' }, 'token_type_mismatch'],
    [
      'an ID token by its nonce',
      { token_type: undefined, nonce: 'n-0S6_WzA2Mj' },
      'token_type_mismatch',
    ],
    ['an ID token by its at_hash', { at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q' }, 'token_type_mismatch'],
    ["Cognito's ID token", { token_use: 'id' }, 'token_type_mismatch'],
  ];
  it.each(cases)('refuses %s with 401 invalid_token', async (_name, claims, code) => {
    if (claims !== undefined) endpoint().answers.set('opaque-1', good(claims));
    const error = await refusal(tokenIntrospection(options()).verify('opaque-1'));
    expect(error).toMatchObject({ status: 401, code, expose: true });
    expect((error['headers'] as Record<string, string>)['www-authenticate']).toMatch(
      /^Bearer realm="plantstore", error="invalid_token", error_description="/,
    );
  });

  it("accepts Keycloak's access token by its typ, nonce and all", async () => {
    endpoint().answers.set('opaque-1', good({ typ: 'Bearer', nonce: 'n-0S6_WzA2Mj' }));
    await expect(tokenIntrospection(options()).verify('opaque-1')).resolves.toMatchObject({
      subject: 'alice',
    });
  });

  it('refuses with 401 claim_missing an answer that names no client, as a JWT', async () => {
    endpoint().answers.set('opaque-1', good({ client_id: undefined }));
    const auth = tokenIntrospection(options({ clients: 'plants-writer' }));
    await expect(auth.verify('opaque-1')).rejects.toMatchObject({ code: 'claim_missing' });
  });

  it('refuses another client with 401 client_mismatch', async () => {
    endpoint().answers.set('opaque-1', good({ client_id: 'intruder' }));
    const auth = tokenIntrospection(options({ clients: 'plants-writer' }));
    await expect(auth.verify('opaque-1')).rejects.toMatchObject({ code: 'client_mismatch' });
  });

  it('refuses a token without a required scope with 403 insufficient_scope', async () => {
    endpoint().answers.set('opaque-1', good({ scope: 'plants:read' }));
    const auth = tokenIntrospection(options({ requiredScopes: ['plants:write'] }));
    const error = await refusal(auth.verify('opaque-1'));
    expect(error).toMatchObject({ status: 403, code: 'scope_insufficient' });
  });

  it('refuses an opaque token under the DPoP scheme without asking: its binding is not checked', async () => {
    endpoint().answers.set('opaque-1', good());
    const request = {
      method: 'POST',
      path: '/plants',
      headers: () => undefined,
      scheme: 'DPoP' as const,
    };
    await expect(tokenIntrospection(options()).verify('opaque-1', request)).rejects.toMatchObject({
      code: 'token_not_dpop_bound',
    });
    expect(endpoint().requests).toHaveLength(0);
  });

  it('refuses a token over 16 KiB with token_too_large without asking', async () => {
    await expect(tokenIntrospection(options()).verify('a'.repeat(16_385))).rejects.toMatchObject({
      code: 'token_too_large',
      message: 'The bearer token is not valid: The token is larger than 16 KiB',
    });
    expect(endpoint().requests).toHaveLength(0);
  });
});

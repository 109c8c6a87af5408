import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer, type JwtBearer, type JwtBearerOptions } from '../jwt/jwt-bearer';
import { PROVIDER_FIXTURES } from './fixtures/all.fixture';
import { providerKeys, type ProviderKeys } from './provider-keys.test-support';
import { postPlant, serveProvider, type ProviderServer } from './provider-server.test-support';
import { variantToken } from './provider-token.test-support';

// Each provider's documented tokens against its preset: the key set served over real HTTP at the
// provider's own URL (through jwtBearer's `fetch`), tokens signed with keys made for the run.
describe.each(PROVIDER_FIXTURES)('the $name preset', (fixture) => {
  let keys: ProviderKeys;
  let server: ProviderServer;
  let auth: JwtBearer;
  const { accessToken } = fixture;

  beforeAll(async () => {
    keys = providerKeys(fixture);
    server = await serveProvider(keys.documents);
    const scopes = fixture.scope === undefined ? [] : [fixture.scope];
    // A preset's form plus `fetch`; the union of forms cannot follow a spread of the union.
    const options = {
      ...fixture.preset,
      fetch: server.fetch,
      requiredScopes: scopes,
      cache: false,
    };
    auth = jwtBearer(options as JwtBearerOptions);
  }, 60_000);

  afterAll(() => server.close());

  it('accepts its access token, with its subject and scope', async () => {
    const principal = await auth.verify(await keys.sign(accessToken));
    expect(principal.subject).toBe(accessToken.claims['sub']);
    if (fixture.scope !== undefined) expect(principal.scopes).toContain(fixture.scope);
  });

  it('creates a plant with its access token through a real service', async () => {
    const answer = await postPlant(auth, await keys.sign(accessToken));
    expect(answer).toEqual({ status: 200, challenge: null, body: '{"name":"Monstera"}' });
  });

  it.each(fixture.accepted ?? [])('accepts $case', async (variant) => {
    const principal = await auth.verify(await keys.sign(variantToken(accessToken, variant)));
    expect(principal.subject).toBe(accessToken.claims['sub']);
  });

  it.each(fixture.refusals)('refuses a token $case: 401 $code', async (refusal) => {
    const token = await keys.sign(variantToken(accessToken, refusal));
    await expect(auth.verify(token)).rejects.toMatchObject({ status: 401, code: refusal.code });
  });

  it('answers its last refused token 401 invalid_token through a real service', async () => {
    const refusal = fixture.refusals.at(-1);
    if (refusal === undefined) throw new Error('a fixture names at least one refused token');
    const token = await keys.sign(variantToken(accessToken, refusal));
    const error = await auth.verify(token).catch((thrown: unknown) => thrown);
    const { description } = (error as { challenge: { description: string } }).challenge;
    expect(await postPlant(auth, token)).toEqual({
      status: 401,
      challenge: `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
      body: JSON.stringify({
        error: 401,
        message: `The bearer token is not valid: ${description}`,
      }),
    });
  });
});

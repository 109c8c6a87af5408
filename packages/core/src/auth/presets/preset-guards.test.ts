import { describe, expect, it } from 'vitest';
import { jwtBearer, type JwtBearerOptions } from '../jwt/jwt-bearer';
import { PROVIDER_FIXTURES } from './fixtures/all.fixture';
import { useServedProvider } from './served-provider.test-support';
import { variantToken } from './provider-token.test-support';
import type { ProviderFixture } from './provider-fixture.test-support';

// A preset's guard against its provider's other tokens survives the host's own `requiredClaims`
// spread over it (docs/reference/security.md recommends `requiredClaims: ['exp']`): the two lists add up.
const GUARDED = ['ZITADEL', 'authentik', 'Amazon Cognito', 'Ory Hydra', 'Entra ID (single tenant)'];

function fixtureNamed(name: string): ProviderFixture {
  const fixture = PROVIDER_FIXTURES.find((candidate) => candidate.name === name);
  if (fixture === undefined) throw new Error(`No fixture is named ${name}`);
  return fixture;
}

function served(fixture: ProviderFixture) {
  const provider = useServedProvider(fixture);
  return {
    verify: async (options: Partial<JwtBearerOptions>, token: ProviderFixture['accessToken']) => {
      const { keys, server } = provider();
      const auth = jwtBearer({
        ...fixture.preset,
        ...options,
        fetch: server.fetch,
        cache: false,
      } as JwtBearerOptions);
      return auth.verify(await keys.sign(token));
    },
  };
}

describe.each(GUARDED)('the %s preset with requiredClaims: ["exp"] of the host', (name) => {
  const fixture = fixtureNamed(name);
  const provider = served(fixture);
  const idToken = fixture.refusals.find((refusal) => refusal.case.startsWith('its ID token'));

  it('still accepts its access token', async () => {
    const principal = await provider.verify({ requiredClaims: ['exp'] }, fixture.accessToken);
    expect(principal.subject).toBe(fixture.accessToken.claims['sub']);
  });

  it.runIf(idToken !== undefined)('still refuses its ID token, as without it', async () => {
    const token = variantToken(fixture.accessToken, idToken ?? { case: '' });
    await expect(provider.verify({ requiredClaims: ['exp'] }, token)).rejects.toMatchObject({
      status: 401,
      code: idToken?.code,
    });
  });
});

describe("the Entra ID preset with the host's requiredClaims: ['scp']", () => {
  const fixture = fixtureNamed('Entra ID (single tenant)');
  const provider = served(fixture);

  it('refuses an app-only token, which has no scp: 401 claim_missing', async () => {
    const appOnly = variantToken(fixture.accessToken, {
      case: 'app-only',
      claims: { scp: undefined, roles: ['Plants.Write.All'] },
    });
    await expect(provider.verify({ requiredClaims: ['scp'] }, appOnly)).rejects.toMatchObject({
      status: 401,
      code: 'claim_missing',
    });
    await expect(provider.verify({}, appOnly)).resolves.toMatchObject({
      scopes: ['Plants.Write.All'],
    });
  });
});

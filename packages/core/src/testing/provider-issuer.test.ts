import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { createProviderIssuer, type ProviderName } from './provider-issuer';

const OKTA = { domain: 'dev-133337.okta.com' };

describe('createProviderIssuer', () => {
  it('throws a TypeError naming the providers it has for another one', () => {
    expect(() => createProviderIssuer('github' as ProviderName, OKTA)).toThrow(
      new TypeError(
        'createProviderIssuer: provider must be one of auth0, entraId, okta, cognito, keycloak, firebase, supabase, clerk, zitadel, authentik, oryHydra; received "github"',
      ),
    );
  });

  it("throws the preset's own TypeError for its options at once", () => {
    expect(() => createProviderIssuer('okta', { domian: 'x' } as never)).toThrow(
      /^okta: unknown option "domian" \(did you mean "domain"\?\)/u,
    );
  });

  it("serves its keys at the preset's real key-set URL and refuses any other URL", async () => {
    const provider = await createProviderIssuer('okta', OKTA);
    expect(provider.issuer).toBe('https://dev-133337.okta.com/oauth2/default');
    expect(provider.jwksUris).toEqual(['https://dev-133337.okta.com/oauth2/default/v1/keys']);
    const served = await provider.fetch(new URL(provider.jwksUris[0] ?? ''));
    expect(served.status).toBe(200);
    const { keys } = (await served.json()) as { keys: { kid: string; alg: string }[] };
    const token = await provider.sign();
    expect(keys.map((key) => key.kid)).toEqual([decodeProtectedHeader(token).kid]);
    await expect(provider.fetch('https://dev-133337.okta.com/other')).rejects.toThrow(
      'createProviderIssuer(okta) serves only https://dev-133337.okta.com/oauth2/default/v1/keys, not https://dev-133337.okta.com/other',
    );
  });

  it("mints the provider's header and claims, scopes in its own scope claim", async () => {
    const provider = await createProviderIssuer('okta', OKTA);
    const token = await provider.sign({ scopes: ['plants:write'], claims: { uid: undefined } });
    // Okta's access tokens carry no `typ`: the header is `alg` and `kid` alone.
    expect(Object.keys(decodeProtectedHeader(token))).toEqual(['alg', 'kid']);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: 'https://dev-133337.okta.com/oauth2/default',
      aud: 'api://default',
      ver: 1,
      scp: ['plants:write'],
      cid: '0oaoesxtxmPf08QHk0h7',
    });
    expect(claims).not.toHaveProperty('uid');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(3600);
  });

  it('has no ID token for a provider whose APIs take its session tokens', async () => {
    const provider = await createProviderIssuer('clerk', {
      frontendApi: 'https://clerk.plants.example.com',
      authorizedParties: ['https://plants.example.com'],
    });
    await expect(provider.signIdToken()).rejects.toThrow(
      "createProviderIssuer: clerk's APIs take its ID or session tokens: there is no other kind to refuse.",
    );
  });
});

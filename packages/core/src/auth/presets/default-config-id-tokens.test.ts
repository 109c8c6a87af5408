import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../jwt/jwt-bearer';
import { PROVIDER_FIXTURES } from './fixtures/all.fixture';
import { useServedProvider } from './served-provider.test-support';
import { variantToken } from './provider-token.test-support';

// The plain configuration a new user writes, without a preset, whose audience is the ID token's own
// `aud` (an API registered as the same client, or oidc-provider's ID token for the API): ID tokens
// are still refused by what tells them apart, Keycloak's `typ`, Cognito's `token_use`, a `nonce` or
// an `at_hash`.
const TOLD_APART = [
  'Keycloak',
  'Amazon Cognito',
  'Ory Hydra',
  'Okta',
  'Auth0',
  'Entra ID (single tenant)',
];
const cases = PROVIDER_FIXTURES.filter(({ name }) => TOLD_APART.includes(name)).map((fixture) => {
  const refusal = fixture.refusals.find((r) => r.case.startsWith('its ID token'));
  if (refusal === undefined) throw new Error(`${fixture.name} has no ID token fixture`);
  return { fixture, name: fixture.name, idToken: variantToken(fixture.accessToken, refusal) };
});

describe.each(cases)(
  'jwtBearer({ jwksUri, issuer, audience }) and $name',
  ({ fixture, idToken }) => {
    const provider = useServedProvider(fixture);

    it("refuses its ID token, even when the audience is the token's own: 401 token_type_mismatch", async () => {
      const auth = jwtBearer({
        jwksUri: fixture.keySets[0]?.url ?? '',
        issuer: String(idToken.claims['iss']),
        audience: String([idToken.claims['aud']].flat()[0]),
        fetch: provider().server.fetch,
      });
      await expect(auth.verify(await provider().keys.sign(idToken))).rejects.toMatchObject({
        status: 401,
        code: 'token_type_mismatch',
      });
    });
  },
);

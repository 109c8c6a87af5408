import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jwtBearer, type JwtBearerOptions } from '../jwt/jwt-bearer';
import { PROVIDER_FIXTURES } from './fixtures/all.fixture';
import { providerKeys, type ProviderKeys } from './provider-keys.test-support';
import { postPlant, serveProvider, type ProviderServer } from './provider-server.test-support';

// Entra ID puts up to 200 group ids in a JWT's `groups` before it switches to an overage claim
// (https://learn.microsoft.com/en-us/entra/identity-platform/access-token-claims-reference, `groups`):
// such a token must pass the header limit of Node and the core's token limit.
const fixture = PROVIDER_FIXTURES.find(({ name }) => name === 'Entra ID (single tenant)');
let keys: ProviderKeys;
let server: ProviderServer;

beforeAll(async () => {
  if (fixture === undefined) throw new Error('the Entra ID fixture is missing');
  keys = providerKeys(fixture);
  server = await serveProvider(keys.documents);
}, 60_000);

afterAll(() => server.close());

it("creates a plant with the token of a user in 200 groups, Entra ID's limit", async () => {
  if (fixture === undefined) return;
  const groups = Array.from({ length: 200 }, () => randomUUID());
  const claims = { ...fixture.accessToken.claims, groups };
  const token = await keys.sign({ header: fixture.accessToken.header, claims });
  expect(token.length).toBeGreaterThan(11_000);
  expect(token.length).toBeLessThan(16_384);
  const auth = jwtBearer({ ...fixture.preset, fetch: server.fetch } as JwtBearerOptions);
  expect((await postPlant(auth, token)).status).toBe(200);
});

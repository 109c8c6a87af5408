import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtBearer, memoryStore, type JwtBearerOptions } from '@plantstore/core';
import {
  auth0,
  authentik,
  clerk,
  cognito,
  entraId,
  firebase,
  keycloak,
  okta,
  oryHydra,
  supabase,
  zitadel,
} from '@plantstore/core/providers';
import {
  createProviderIssuer,
  type ProviderName,
  type ProviderPresetOptions,
} from '@plantstore/core/testing';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantRouter } from '../src/index';

interface Case<N extends ProviderName> {
  readonly name: N;
  readonly options: ProviderPresetOptions[N];
  /** The preset as a user's configuration calls it. */
  readonly preset: (options: ProviderPresetOptions[N]) => JwtBearerOptions;
  /** The scope the route requires, for a provider that grants scopes. */
  readonly scope?: string;
  /** The code its ID token is refused with; none for a provider whose APIs take it. */
  readonly idTokenCode?: string;
}

const CASES = [
  {
    name: 'auth0',
    options: { domain: 'dev-plants.eu.auth0.com', audience: 'https://plants.example.com' },
    preset: auth0,
    scope: 'plants:write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'auth0'>,
  {
    name: 'entraId',
    options: {
      tenantId: 'f1a2b3c4-d5e6-4f70-8192-a3b4c5d6e7f8',
      clientId: '6e74172b-be56-4843-9ff4-e66a39bb12e3',
    },
    preset: entraId,
    scope: 'plants.write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'entraId'>,
  {
    name: 'okta',
    options: { domain: 'dev-133337.okta.com' },
    preset: okta,
    scope: 'plants:write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'okta'>,
  {
    name: 'cognito',
    options: { userPoolId: 'us-east-1_aBcDeFgHi', clientIds: ['1example23456789'] },
    preset: cognito,
    scope: 'plants/write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'cognito'>,
  {
    name: 'keycloak',
    options: { url: 'https://sso.example.com', realm: 'plants', audience: 'plants-api' },
    preset: keycloak,
    scope: 'plants:write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'keycloak'>,
  { name: 'firebase', options: { projectId: 'plants-12345' }, preset: firebase },
  { name: 'supabase', options: { projectRef: 'abcdefghijklmnopqrst' }, preset: supabase },
  {
    name: 'clerk',
    options: {
      frontendApi: 'https://clerk.plants.example.com',
      authorizedParties: ['https://plants.example.com'],
    },
    preset: clerk,
  } satisfies Case<'clerk'>,
  {
    name: 'zitadel',
    options: { issuer: 'https://plants-abc123.zitadel.cloud', audience: '249341813410513163' },
    preset: zitadel,
    idTokenCode: 'claim_missing',
  } satisfies Case<'zitadel'>,
  {
    name: 'authentik',
    options: {
      issuer: 'https://authentik.example.com/application/o/plants/',
      audience: 'aBcDeF1234567890',
    },
    preset: authentik,
    idTokenCode: 'claim_missing',
  } satisfies Case<'authentik'>,
  {
    name: 'oryHydra',
    options: {
      issuer: 'https://plants-abc.projects.oryapis.com',
      audience: 'https://plants.example.com',
    },
    preset: oryHydra,
    scope: 'plants:write',
    idTokenCode: 'token_type_mismatch',
  } satisfies Case<'oryHydra'>,
] as readonly Case<ProviderName>[];

// A user's own app: Express 5, the preset as in production, the kit's `fetch` the only addition.
describe.each(CASES)('the testing kit with the $name preset', (testCase) => {
  let server: Server;
  let url: string;
  let sign: () => Promise<string>;
  let signIdToken: () => Promise<string>;
  const refused: string[] = [];

  beforeAll(async () => {
    const provider = await createProviderIssuer(testCase.name, testCase.options);
    const scopes = testCase.scope === undefined ? [] : [testCase.scope];
    const options = { ...testCase.preset(testCase.options), requiredScopes: scopes };
    const auth = jwtBearer({ ...options, fetch: provider.fetch } as JwtBearerOptions);
    const app = express();
    app.use(
      '/api',
      plantRouter({
        store: memoryStore(),
        auth,
        onRejected: (error) => void refused.push(error.code),
      }),
    );
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/plants`;
    sign = () => provider.sign({ scopes });
    signIdToken = () => provider.signIdToken({ scopes });
  }, 60_000);

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (token: string) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Monstera"}',
    });

  it('creates a plant with its access token: 200', async () => {
    const response = await post(await sign());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.text()).toBe('{"name":"Monstera"}');
    expect(refused).toEqual([]);
  });

  const { idTokenCode } = testCase;
  if (idTokenCode === undefined) {
    it('has no ID token to refuse: its APIs take that token', async () => {
      await expect(signIdToken()).rejects.toThrow(TypeError);
    });
  } else {
    it(`refuses its ID token: 401 ${idTokenCode}`, async () => {
      const response = await post(await signIdToken());
      expect(response.status).toBe(401);
      expect(refused).toEqual([idTokenCode]);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="plantstore", error="invalid_token", error_description="[^"]+"$/u,
      );
      const body = (await response.json()) as { error: number; message: string };
      expect(body.error).toBe(401);
      expect(body.message).toMatch(/^The bearer token is not valid: /u);
    });
  }
});

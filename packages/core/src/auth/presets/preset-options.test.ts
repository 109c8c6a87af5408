import { describe, expect, it } from 'vitest';
import { auth0 } from './auth0';
import { authentik } from './authentik';
import { clerk } from './clerk';
import { cognito } from './cognito';
import { entraId } from './entra-id';
import { entraIdMultiTenant } from './entra-id-multi-tenant';
import { keycloak } from './keycloak';
import { okta } from './okta';
import { supabase } from './supabase';
import { PRESET_REQUIRED_CLAIMS } from '../jwt/options/preset-keys';

const TENANT = 'F1A2B3C4-D5E6-4F70-8192-A3B4C5D6E7F8';
const API = '6e74172b-be56-4843-9ff4-e66a39bb12e3';

// What a preset builds from what the console shows: the provider's URLs, exactly as its tokens name them.
describe('a preset builds', () => {
  it.each([
    {
      call: () =>
        keycloak({ url: 'https://sso.example.com/auth/', realm: 'plants', audience: 'api' }),
      built: {
        jwksUri: 'https://sso.example.com/auth/realms/plants/protocol/openid-connect/certs',
        issuer: 'https://sso.example.com/auth/realms/plants',
        audience: ['api'],
      },
    },
    {
      call: () =>
        clerk({
          frontendApi: 'verb-noun-00.clerk.accounts.dev',
          authorizedParties: 'https://a.example',
        }),
      built: {
        jwksUri: 'https://verb-noun-00.clerk.accounts.dev/.well-known/jwks.json',
        issuer: 'https://verb-noun-00.clerk.accounts.dev',
        clients: ['https://a.example'],
      },
    },
    {
      call: () => cognito({ region: 'eu-west-1', userPoolId: 'eu-west-1_AbC', clientIds: 'c1' }),
      built: {
        jwksUri: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC/.well-known/jwks.json',
        issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC',
        clients: ['c1'],
        [PRESET_REQUIRED_CLAIMS]: ['token_use'],
      },
    },
    {
      call: () => entraId({ tenantId: TENANT, clientId: API, requestedAccessTokenVersion: 1 }),
      built: {
        issuers: [
          {
            issuer: `https://sts.windows.net/${TENANT.toLowerCase()}/`,
            jwksUri: `https://login.microsoftonline.com/${TENANT.toLowerCase()}/discovery/keys`,
            audience: [`api://${API}`, API],
            [PRESET_REQUIRED_CLAIMS]: ['appid'],
          },
        ],
        scopeClaims: ['scp', 'roles'],
      },
    },
    {
      call: () =>
        authentik({ issuer: 'https://id.example.com/application/o/plants', audience: 'c' }),
      built: {
        jwksUri: 'https://id.example.com/application/o/plants/jwks/',
        issuer: 'https://id.example.com/application/o/plants',
        audience: ['c'],
        [PRESET_REQUIRED_CLAIMS]: ['azp', 'uid'],
      },
    },
  ])('$call', ({ call, built }) => {
    expect(call()).toEqual(built);
  });
});

// A value the provider would never put in a token fails at start-up, naming the preset and option.
describe('a preset refuses at start-up', () => {
  it.each([
    {
      call: () => auth0({ domain: 'https://dev.eu.auth0.com', audience: 'a' }),
      message:
        'auth0: option "domain" must be a host name without scheme or path (id.example.com); received a string of 24 characters',
    },
    {
      call: () => auth0({ domian: 'dev.eu.auth0.com', audience: 'a' } as never),
      message: 'auth0: unknown option "domian" (did you mean "domain"?)',
    },
    {
      call: () => entraId({ tenantId: 'contoso.onmicrosoft.com', clientId: API }),
      message:
        'entraId: option "tenantId" must be a GUID (the id the portal shows); received a string of 23 characters',
    },
    {
      call: () => entraIdMultiTenant({ clientId: API, tenants: [] }),
      message:
        'entraIdMultiTenant: option "tenants" must be a non-empty list of tenant IDs or a function; received an array of 0 items',
    },
    {
      call: () => entraIdMultiTenant({ clientId: API, tenants: ['common'] }),
      message:
        'entraIdMultiTenant: option "tenants[0]" must be a GUID (the id the portal shows); received a string of 6 characters',
    },
    {
      call: () => cognito({ region: 'us-east-1', userPoolId: 'eu-west-1_AbC', clientIds: 'c1' }),
      message:
        'cognito: option "region" must be the pool\'s, eu-west-1; received a string of 9 characters',
    },
    {
      call: () => okta({ domain: 'dev-1.okta.com', authServerId: '../default' }),
      message:
        'okta: option "authServerId" must be a string matching /^[A-Za-z0-9]+$/u; received a string of 10 characters',
    },
    {
      call: () => keycloak({ url: 'http://sso.example.com', realm: 'plants', audience: 'api' }),
      message:
        'keycloak: option "url" must be an https: URL without query or fragment; received a string of 22 characters',
    },
    {
      call: () => supabase({ projectRef: 'abc', url: 'https://abc.supabase.co' } as never),
      message: 'supabase: option "projectRef" or "url" is required, not both; received both',
    },
  ])('$message', ({ call, message }) => {
    expect(call).toThrow(new TypeError(message));
  });
});

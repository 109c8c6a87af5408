import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createPlantService } from '../../service/service';
import { memoryStore } from '../../plant/memory-store';
import { jwtBearer } from '../jwt/jwt-bearer';
import { tokenIntrospection } from './token-introspection';
import { optionsFor, useIntrospectionEndpoint } from './introspection-endpoint.test-support';

// The configuration docs/guides/authentication.md gives under "Opaque tokens": one authorization for the
// opaque tokens asked about and the JWTs handed to `jwt`.
const API = 'https://api.example.com/plants';
const ISSUER = 'urn:provider';
const SECRET = 'a-shared-secret-of-32-bytes-long';
const endpoint = useIntrospectionEndpoint();

function plants() {
  return createPlantService({
    store: memoryStore(),
    auth: tokenIntrospection(
      optionsFor(endpoint(), {
        audience: API,
        clients: ['web-app'],
        requiredScopes: ['plants:write'],
        cache: false,
        jwt: jwtBearer({ secret: SECRET, issuer: ISSUER, audience: [API, 'another-api'] }),
      }),
    ),
  });
}

const jwt = (claims: Record<string, unknown>): Promise<string> =>
  new SignJWT({ sub: 'alice', aud: API, client_id: 'web-app', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(SECRET));

async function create(token: string): Promise<{ status: number; challenge: string | null }> {
  const response = await plants().fetch(
    new Request('http://plants.test/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id":1,"name":"Fern"}',
    }),
  );
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get('www-authenticate') };
}

describe('tokenIntrospection applies its own checks to the JWTs it hands to jwt', () => {
  it('creates a plant with a JWT that passes both', async () => {
    expect(await create(await jwt({ scope: 'plants:write' }))).toStrictEqual({
      status: 200,
      challenge: null,
    });
  });

  it('refuses with 403 a JWT without the required scope, as it refuses the opaque token', async () => {
    endpoint().answers.set('opaque-read', {
      aud: API,
      client_id: 'web-app',
      scope: 'plants:read',
    });
    const scopeChallenge =
      'Bearer realm="plantstore", error="insufficient_scope", ' +
      'error_description="The token lacks a required scope", scope="plants:write"';
    expect(await create('opaque-read')).toStrictEqual({ status: 403, challenge: scopeChallenge });
    expect(await create(await jwt({ scope: 'plants:read' }))).toStrictEqual({
      status: 403,
      challenge: scopeChallenge,
    });
  });

  it.each([
    [
      'another audience that jwt accepts',
      { aud: 'another-api', scope: 'plants:write' },
      'The token is not for this audience',
    ],
    [
      'another client',
      { client_id: 'other-app', scope: 'plants:write' },
      'The token was issued to another client',
    ],
    [
      'no client',
      { client_id: undefined, scope: 'plants:write' },
      'The token names no client (client_id or azp)',
    ],
  ])('refuses with 401 a JWT of %s', async (_, claims, description) => {
    expect(await create(await jwt(claims))).toStrictEqual({
      status: 401,
      challenge: `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { dpopBinding } from '../auth/dpop/dpop-binding';
import type { PlantServiceError } from '../errors/plant-service-error';
import { memoryStore } from '../plant/memory-store';
import { createPlantService } from '../service/service';
import type { HookContext } from '../service/service-options';
import { createDpopClient } from '../testing/dpop-client';
import { createTokenIssuer, type TokenIssuer } from '../testing/token-issuer';
import { guard } from './fetch-guard';

const ORIGIN = 'https://api.example.com';
let issuer: TokenIssuer;
beforeAll(async () => {
  issuer = await createTokenIssuer();
});
afterAll(async () => {
  await issuer.close();
});

function app(extra: { dpop?: boolean; retryAfter?: number } = {}) {
  const rejected: [PlantServiceError, HookContext][] = [];
  const service = createPlantService({
    store: memoryStore(),
    auth: jwtBearer({
      ...issuer.jwtBearerOptions,
      ...(extra.dpop === true ? { dpop: dpopBinding() } : {}),
    }),
    publicUrl: ORIGIN,
    logger: false,
    onRejected: (error, context) => void rejected.push([error, context]),
  });
  return { service, rejected };
}

/** What the contract names of a response: status, its headers, body. */
async function view(response: Response) {
  const names = ['content-type', 'cache-control', 'vary', 'www-authenticate', 'retry-after'];
  const headers = Object.fromEntries(names.map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, body: await response.text() };
}

function request(method: string, path: string, headers: Record<string, string>): Request {
  return new Request(`${ORIGIN}${path}`, { method, headers });
}

describe('guard', () => {
  const FIELDS = [
    ['no field', undefined],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer with no token', 'Bearer'],
    ['a malformed token', 'Bearer abc.def'],
    ['a comma list', 'Bearer abc, Bearer def'],
  ] as const;
  it.each(FIELDS)(
    'answers %s on a guarded GET and DELETE exactly as the plant route answers it',
    async (_what, authorization) => {
      const { service } = app();
      const check = guard(service);
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const route = await view(await service.fetch(request('POST', '/plants', headers)));
      for (const method of ['GET', 'DELETE']) {
        const { response } = await check(request(method, '/things/1', headers));
        expect(response).toBeDefined();
        expect(await view(response as Response)).toEqual(route);
      }
    },
  );

  it('answers an expired token 401 invalid_token as the route does, and tells onRejected the guarded path', async () => {
    const { service, rejected } = app();
    const expired = await issuer.sign({}, { expiresIn: -60 });
    const headers = { authorization: `Bearer ${expired}` };
    const route = await view(await service.fetch(request('POST', '/plants', headers)));
    const { response } = await guard(service)(request('GET', '/things?page=2', headers));
    expect(await view(response as Response)).toEqual(route);
    expect(route.status).toBe(401);
    expect(rejected.map(([error, context]) => [error.code, context.path])).toEqual([
      ['token_expired', '/plants'],
      ['token_expired', '/things'],
    ]);
  });

  it("answers a verifier's unexpected failure 500 with a message of its own, not the create's, and reports it to onError", async () => {
    const errors: string[] = [];
    const service = createPlantService({
      store: memoryStore(),
      auth: { verify: () => Promise.reject(new Error('the verifier broke')) },
      logger: false,
      onError: (error) => void errors.push(error.code),
    });
    const headers = { authorization: 'Bearer anything' };
    const route = await view(await service.fetch(request('POST', '/plants', headers)));
    const { response } = await guard(service)(request('GET', '/things', headers));
    const guarded = await view(response as Response);
    expect(route.status).toBe(500);
    expect(guarded).toEqual({
      ...route,
      body: '{"error":500,"message":"The request could not be completed because of an internal error."}',
    });
    expect(JSON.parse(route.body)).toEqual({
      error: 500,
      message: 'The plant could not be created because of an internal error.',
    });
    expect(errors).toEqual(['auth_failed', 'auth_failed']);
  });

  it('hands over the principal of a valid token and reads no body', async () => {
    const { service } = app();
    const token = await issuer.sign({ sub: 'gardener', scope: 'plants:read' });
    const body = new ReadableStream<Uint8Array>({
      pull: () => {
        throw new Error('the guard read the body');
      },
    });
    const result = await guard(service)(
      new Request(`${ORIGIN}/things`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
        body,
        duplex: 'half',
      }),
    );
    expect(result.response).toBeUndefined();
    expect(result.principal?.subject).toBe('gardener');
    expect(result.principal?.scopes).toEqual(['plants:read']);
  });

  it('requires every scope by default, and one of them with scopeMatch any', async () => {
    const { service } = app();
    const reader = { authorization: `Bearer ${await issuer.sign({ scope: 'plants:read' })}` };
    const all = guard(service, { requiredScopes: ['plants:read', 'plants:delete'] });
    const { response } = await all(request('DELETE', '/things/1', reader));
    expect(await view(response as Response)).toEqual({
      status: 403,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        vary: 'Authorization',
        'www-authenticate':
          'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:read plants:delete"',
        'retry-after': null,
      },
      body: '{"error":403,"message":"The bearer token lacks a required scope: plants:read plants:delete."}',
    });
    const any = guard(service, {
      requiredScopes: ['plants:read', 'plants:delete'],
      scopeMatch: 'any',
    });
    expect((await any(request('DELETE', '/things/1', reader))).principal?.scopes).toEqual([
      'plants:read',
    ]);
  });

  it('answers a failed claim check 403 claim_mismatch without a challenge', async () => {
    const { service, rejected } = app();
    const token = await issuer.sign({ tenant: 'acme', groups: ['admins', 'staff'], level: 3 });
    const headers = { authorization: `Bearer ${token}` };
    const passes = guard(service, {
      claims: {
        tenant: 'acme',
        groups: ['owners', 'admins'],
        level: (claims) => claims['level'] === 3,
      },
    });
    expect((await passes(request('GET', '/x', headers))).principal).toBeDefined();
    for (const claims of [
      { tenant: 'globex' },
      { groups: 'owners' },
      { level: () => false },
      { missing: ['a', 1, true] },
    ]) {
      const { response } = await guard(service, { claims })(request('GET', '/x', headers));
      const seen = await view(response as Response);
      const name = Object.keys(claims)[0] ?? '';
      expect(seen).toEqual({
        status: 403,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
          vary: 'Authorization',
          'www-authenticate': null,
          'retry-after': null,
        },
        body: JSON.stringify({
          error: 403,
          message: `The bearer token's ${name} claim is not one this route accepts.`,
        }),
      });
      expect(rejected.at(-1)?.[0].code).toBe('claim_mismatch');
      expect(rejected.at(-1)?.[1].principal?.claims['tenant']).toBe('acme');
    }
  });

  it('refuses bad options and anything but a service at once, with a TypeError', () => {
    const { service } = app();
    expect(() => guard({} as never)).toThrow(
      "guard: expected a service made by createPlantService (the route's own, so that both share one key set and one replay store); received an instance of Object",
    );
    expect(() => guard(service, { requiredScope: ['a'] } as never)).toThrow(
      'guard: unknown option "requiredScope" (did you mean "requiredScopes"?)',
    );
    expect(() => guard(service, { scopeMatch: 'some' as never })).toThrow(
      `guard: option "scopeMatch" must be 'all' or 'any'; received a string of 4 characters`,
    );
    expect(() => guard(service, { requiredScopes: ['a b'] })).toThrow(TypeError);
    expect(() => guard(service, { claims: { tenant: [] } })).toThrow(
      'guard: option "claims.tenant" must be a string, number or boolean, a non-empty array of them, or a function of the claims; received an array of 0 items',
    );
  });

  it('answers 503 with Retry-After on a key-set outage, as the route does, and shares one key-set fetch with it', async () => {
    const { service } = app();
    const headers = { authorization: `Bearer ${await issuer.sign({ scope: 'plants:write' })}` };
    const before = issuer.requests;
    const check = guard(service);
    expect((await check(request('GET', '/x', headers))).principal).toBeDefined();
    const created = await service.fetch(
      new Request(`${ORIGIN}/plants`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{"id":1,"name":"Fern"}',
      }),
    );
    expect(created.status).toBe(200);
    expect((await check(request('DELETE', '/x', headers))).principal).toBeDefined();
    expect(issuer.requests - before).toBe(1);

    const { service: down } = app();
    issuer.outage('down');
    try {
      const route = await view(await down.fetch(request('POST', '/plants', headers)));
      const { response } = await guard(down)(request('GET', '/x', headers));
      expect(await view(response as Response)).toEqual(route);
      expect(route.status).toBe(503);
      expect(route.headers['retry-after']).not.toBeNull();
    } finally {
      issuer.outage('none');
    }
  });

  it('checks a DPoP proof against the guarded request: its method and publicUrl with its path', async () => {
    const { service, rejected } = app({ dpop: true });
    const client = await createDpopClient();
    const token = await issuer.sign({ scope: 'plants:read' }, { boundTo: client });
    const check = guard(service);
    const url = `${ORIGIN}/things/1`;
    const good = await client.headers(token, { method: 'DELETE', url });
    expect((await check(request('DELETE', '/things/1', good))).principal).toBeDefined();
    const forPost = await client.headers(token, { method: 'POST', url });
    const refused = await check(request('DELETE', '/things/1', forPost));
    expect(refused.response?.status).toBe(401);
    expect(rejected.at(-1)?.[0].code).toBe('dpop_proof_method_mismatch');
    expect(refused.response?.headers.get('www-authenticate')).toContain(
      'DPoP realm="plantstore", error="invalid_dpop_proof"',
    );
    const elsewhere = await client.headers(token, { method: 'DELETE', url: `${ORIGIN}/plants` });
    expect((await check(request('DELETE', '/things/1', elsewhere))).response?.status).toBe(401);
    expect(rejected.at(-1)?.[0].code).toBe('dpop_proof_url_mismatch');
    // The proof accepted first is now in the replay store the route uses too.
    expect((await check(request('DELETE', '/things/1', good))).response?.status).toBe(401);
    expect(rejected.at(-1)?.[0].code).toBe('dpop_proof_replayed');
  });

  it("names the one RFC 9728 metadata document in every challenge, the route's and the guard's", async () => {
    const service = createPlantService({
      store: memoryStore(),
      auth: jwtBearer({
        jwksUri: issuer.jwksUri,
        issuer: issuer.issuer,
        audience: `${ORIGIN}/`,
      }),
      publicUrl: ORIGIN,
      resourceMetadata: true,
      logger: false,
    });
    const route = await service.fetch(request('POST', '/plants', {}));
    const { response } = await guard(service)(request('GET', '/things', {}));
    const challenge = `Bearer realm="plantstore", resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource"`;
    expect(route.headers.get('www-authenticate')).toBe(challenge);
    expect(response?.headers.get('www-authenticate')).toBe(challenge);
  });
});

import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { jwtBearer } from '../auth/jwt/jwt-bearer';
import { dpopBinding } from '../auth/dpop/dpop-binding';
import type { PlantServiceError } from '../errors/plant-service-error';
import type { PlantRequest } from '../http/request';
import { memoryStore } from '../plant/memory-store';
import type { HookContext, PlantServiceOptions } from './service-options';
import { createPlantService } from './service';

const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-bytes-long');
const sign = (claims: Record<string, unknown>) =>
  new SignJWT({ sub: 'alice', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(secret);

const request = (authorization: string, extra: Partial<PlantRequest> = {}): PlantRequest => ({
  method: 'POST',
  path: '/plants',
  headers: { authorization, 'content-type': 'application/json' },
  body: '{"id":1,"name":"Fern"}',
  ...extra,
});

/** A service whose hooks keep what they saw. */
function observedService(options: Partial<PlantServiceOptions> = {}) {
  const seen: { error: PlantServiceError; context: HookContext }[] = [];
  const service = createPlantService({
    store: memoryStore(),
    auth: jwtBearer({ secret, requiredScopes: ['plants:write'] }),
    onRejected: (error, context) => void seen.push({ error, context }),
    ...options,
  });
  return { service, seen };
}

describe('the hooks context', () => {
  it('names the principal of a verified token refused 403 for its scope, and the answer does not', async () => {
    const { service, seen } = observedService();
    const token = await sign({ scope: 'plants:read' });
    const answer = await service.handle(request(`Bearer ${token}`));

    expect(answer.status).toBe(403);
    expect(answer.body).toBe(
      '{"error":403,"message":"The bearer token lacks a required scope: plants:write."}',
    );
    expect(answer.headers['www-authenticate']).toBe(
      'Bearer realm="plantstore", error="insufficient_scope", error_description="The token lacks a required scope", scope="plants:write"',
    );
    expect(answer.principal).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.error.code).toBe('scope_insufficient');
    expect(seen[0]?.context).toEqual({
      method: 'POST',
      path: '/plants',
      principal: { subject: 'alice', scopes: ['plants:read'], claims: decodeJwt(token) },
    });
  });

  it('keeps the principal out of what a logger serialises of the error', async () => {
    const { service, seen } = observedService();
    await service.handle(request(`Bearer ${await sign({ scope: 'plants:read' })}`));
    const error = seen[0]?.error;
    expect(Object.keys(error ?? {})).not.toContain('principal');
    expect(JSON.stringify(error)).not.toContain('alice');
  });

  it('names no principal when the token was refused before it was verified', async () => {
    const { service, seen } = observedService();
    const forged = `${(await sign({ scope: 'plants:write' })).slice(0, -4)}AAAA`;
    expect((await service.handle(request(`Bearer ${forged}`))).status).toBe(401);
    expect(seen.map(({ error, context }) => [error.code, context.principal])).toEqual([
      ['signature_invalid', undefined],
    ]);
  });

  it('names the principal when a verified token fails its DPoP binding, with or without a proof', async () => {
    const { service, seen } = observedService({
      auth: jwtBearer({ secret, dpop: dpopBinding() }),
      publicUrl: 'https://api.example.com',
    });
    const bound = await sign({ cnf: { jkt: 'k'.repeat(43) } });
    expect((await service.handle(request(`Bearer ${bound}`))).status).toBe(401);
    expect((await service.handle(request(`DPoP ${bound}`))).status).toBe(401);
    const unbound = await sign({});
    expect((await service.handle(request(`DPoP ${unbound}`))).status).toBe(401);
    expect(seen.map(({ error, context }) => [error.code, context.principal?.subject])).toEqual([
      ['token_dpop_bound', 'alice'],
      ['dpop_proof_missing', 'alice'],
      ['token_not_dpop_bound', 'alice'],
    ]);
  });

  it('gives the path the client requested, mount point included and query left out', async () => {
    const { service, seen } = observedService();
    const token = await sign({ scope: 'plants:read' });
    await service.handle(request(`Bearer ${token}`, { originalUrl: '/api/plants?trace=1' }));
    await service.handle(request(`Bearer ${token}`, { path: '/api/plants' }));
    expect(seen.map(({ context }) => context.path)).toEqual(['/api/plants', '/api/plants']);
  });
});

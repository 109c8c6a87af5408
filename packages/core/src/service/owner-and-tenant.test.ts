import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { PlantRequest } from '../http/request';
import { memoryStore } from '../plant/memory-store';
import type { PlantRecord } from '../plant/plant';
import type { PlantStore } from '../plant/store';
import { quietService, TEST_SECRET } from './quiet-service.fixture';

const sign = (claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(TEST_SECRET);

const post = async (claims: Record<string, unknown>, body: string): Promise<PlantRequest> => ({
  method: 'POST',
  path: '/plants',
  headers: { authorization: `Bearer ${await sign(claims)}`, 'content-type': 'application/json' },
  body,
});

const FERN = '{"id":5,"name":"Fern","tag":"green"}';
const alice = { sub: 'alice', client_id: 'app-1' };

describe('a replay only for its owner', () => {
  it('answers the creator\u2019s retry 200 with Idempotent-Replayed: true, and the create without it', async () => {
    const route = quietService();
    const created = await route.handle(await post(alice, FERN));
    const replayed = await route.handle(await post(alice, FERN));
    expect([created.status, created.headers['idempotent-replayed']]).toStrictEqual([
      200,
      undefined,
    ]);
    expect([replayed.status, replayed.headers['idempotent-replayed']]).toStrictEqual([200, 'true']);
    expect(replayed.body).toBe('{"name":"Fern","tag":"green"}');
    expect(replayed.body).toBe(created.body);
  });

  it.each([
    ['another subject', { sub: 'mallory', client_id: 'app-1' }],
    ['the same subject through another client', { sub: 'alice', client_id: 'app-2' }],
    ['the same subject naming no client', { sub: 'alice' }],
    ['the same client for no subject', { client_id: 'app-1' }],
  ])(
    'answers an identical create by %s exactly as a conflict: 409 id_conflict',
    async (_, claims) => {
      const refused: string[] = [];
      const route = quietService({ onRejected: (error) => void refused.push(error.code) });
      await route.handle(await post(alice, FERN));
      const guess = await route.handle(await post(claims, FERN));
      const conflict = await route.handle(await post(alice, '{"id":5,"name":"Other"}'));
      expect(guess.status).toBe(409);
      expect(guess.headers).toStrictEqual(conflict.headers);
      expect(guess.body).toBe(conflict.body);
      expect(refused).toStrictEqual(['id_conflict', 'id_conflict']);
    },
  );

  it('replays for a client-credentials token (no sub) only to its own client, named by azp too', async () => {
    const route = quietService();
    await route.handle(await post({ azp: 'daemon' }, FERN));
    expect((await route.handle(await post({ client_id: 'daemon' }, FERN))).status).toBe(200);
    expect((await route.handle(await post({ azp: 'other' }, FERN))).status).toBe(409);
  });

  it('never replays a row stored before the owner was kept, nor for a token with neither sub nor client', async () => {
    const legacy: PlantStore = {
      insert: (plant) =>
        Promise.resolve({ created: false, existing: { id: plant.id, name: 'Fern', tag: 'green' } }),
    };
    expect((await quietService({ store: legacy }).handle(await post(alice, FERN))).status).toBe(
      409,
    );
    const route = quietService();
    await route.handle(await post({}, FERN));
    expect((await route.handle(await post({}, FERN))).status).toBe(409);
  });

  it('lets isOwner decide otherwise, and does not call onCreated for a replay', async () => {
    const created: string[] = [];
    const route = quietService({
      isOwner: (stored, principal) => stored.clientId === principal.claims['client_id'],
      onCreated: (plant) => void created.push(plant.name),
    });
    await route.handle(await post(alice, FERN));
    const colleague = await route.handle(await post({ sub: 'bob', client_id: 'app-1' }, FERN));
    expect([colleague.status, colleague.headers['idempotent-replayed']]).toStrictEqual([
      200,
      'true',
    ]);
    expect(created).toStrictEqual(['Fern']);
  });

  it('refuses an isOwner that is not a function at the factory', () => {
    expect(() => quietService({ isOwner: true as never })).toThrow(
      new TypeError('Plantstore: option "isOwner" must be a function; received true'),
    );
  });
});

describe('ids per tenant', () => {
  it('keeps the same id in two tenants as two plants, and one tenant\u2019s id is the other\u2019s conflict-free', async () => {
    const store = memoryStore();
    const route = quietService({ store, tenant: 'tid' });
    const inA = await route.handle(await post({ ...alice, tid: 'org-a' }, FERN));
    const inB = await route.handle(
      await post({ sub: 'bob', tid: 'org-b' }, '{"id":5,"name":"Rose"}'),
    );
    expect([inA.status, inB.status]).toStrictEqual([200, 200]);
    expect(inB.headers['idempotent-replayed']).toBeUndefined();
    expect([store.get(5n, 'org-a')?.name, store.get(5n, 'org-b')?.name]).toStrictEqual([
      'Fern',
      'Rose',
    ]);
    expect(store.get(5n)).toBeUndefined();
  });

  it('hands the store the tenant and the audit fields, none of them in the 200 body', async () => {
    const seen: PlantRecord[] = [];
    const store: PlantStore = {
      insert: (plant) => (seen.push(plant), Promise.resolve({ created: true })),
    };
    const before = Date.now();
    const answer = await quietService({
      store,
      tenant: (p) => p.claims['org_id'] as string,
    }).handle(await post({ sub: 'alice', azp: 'spa', jti: 'j-1', org_id: 'acme' }, FERN));
    expect(answer.body).toBe('{"name":"Fern","tag":"green"}');
    const [record] = seen;
    expect({ ...record, createdAt: undefined }).toStrictEqual({
      id: 5n,
      name: 'Fern',
      tag: 'green',
      tenant: 'acme',
      createdBy: 'alice',
      clientId: 'spa',
      createdAt: undefined,
      tokenId: 'j-1',
    });
    expect(record?.createdAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('stores under tenant "" when tenants are off', async () => {
    const seen: PlantRecord[] = [];
    const store: PlantStore = {
      insert: (plant) => (seen.push(plant), Promise.resolve({ created: true })),
    };
    await quietService({ store }).handle(await post({ sub: 'alice', tid: 'org-a' }, FERN));
    expect(seen.map((record) => [record.tenant, record.clientId, record.tokenId])).toStrictEqual([
      ['', undefined, undefined],
    ]);
  });

  it.each([
    ['no tenant claim', {}, 'tenant_missing', 'The token names no tenant'],
    ['an empty tenant', { tid: '' }, 'tenant_missing', 'The token names no tenant'],
    [
      'a tenant with a space',
      { tid: 'org a' },
      'tenant_invalid',
      'The token names no valid tenant',
    ],
    [
      'a tenant with a brace',
      { tid: 'org{1}' },
      'tenant_invalid',
      'The token names no valid tenant',
    ],
    [
      'a tenant of 129 characters',
      { tid: 't'.repeat(129) },
      'tenant_invalid',
      'The token names no valid tenant',
    ],
    ['a tenant that is a number', { tid: 42 }, 'tenant_invalid', 'The token names no valid tenant'],
    [
      'a tenant outside ASCII',
      { tid: 'orgé' },
      'tenant_invalid',
      'The token names no valid tenant',
    ],
  ])(
    'answers a token with %s 401 invalid_token, before reading the body',
    async (_, claims, code, description) => {
      const refused: string[] = [];
      const route = quietService({
        tenant: 'tid',
        onRejected: (error) => void refused.push(error.code),
      });
      const answer = await route.handle(await post({ sub: 'alice', ...claims }, '{"id":'));
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toBe(
        `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
      );
      expect(JSON.parse(answer.body)).toStrictEqual({
        error: 401,
        message: `The bearer token is not valid: ${description}`,
      });
      expect(refused).toStrictEqual([code]);
    },
  );

  it('accepts a tenant of 128 printable characters', async () => {
    const tid = `${'t'.repeat(120)}!#:|~-_.`;
    const store = memoryStore();
    expect(
      (await quietService({ store, tenant: 'tid' }).handle(await post({ sub: 'a', tid }, FERN)))
        .status,
    ).toBe(200);
    expect(store.get(5n, tid)?.tenant).toBe(tid);
  });

  it.each([[''], [42], [{ claim: 'tid' }]])(
    'refuses a tenant option of %j at the factory',
    (tenant) => {
      expect(() => quietService({ tenant: tenant as never })).toThrow(
        /^Plantstore: option "tenant" must be a claim name/u,
      );
    },
  );
});

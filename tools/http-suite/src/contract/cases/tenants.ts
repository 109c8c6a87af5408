import { memoryStore, type MemoryStore, type PlantServiceError } from '@plantstore/core';
import { afterAll, beforeAll, expect } from 'vitest';
import { postPlant, type Reply } from '../../client/send';
import type { ContractHost } from '../../hosts/target';
import { contractView, expectRouteHeaders } from '../expect';
import { expectedView } from './exchanges';
import { type ContractSuite, SCOPE } from '../suite';

/** The claim the tenant host reads its tenant from (Entra ID's name for it). */
const CLAIM = 'tid';
const CONFLICT =
  'A plant with this id already exists with a different name or tag, or for another caller; nothing was changed.';

/**
 * A contract view without the headers a host may add to: `Connection` (whether a refusal closes is
 * the `closes` cases' question, and API Gateway owns the connection) and `Vary` (Next.js on Node
 * adds its own values; the exchanges compare it to the letter, these cases as the per-status ones do).
 */
function withoutHostHeaders(view: Record<string, unknown>): Record<string, unknown> {
  const headers = { ...(view['headers'] as Record<string, unknown>) };
  delete headers['connection'];
  delete headers['vary'];
  return { ...view, headers };
}

/** What a reply shows of the contract, once its route headers (`Vary: Authorization` among them) are checked. */
function viewOf(reply: Reply): Record<string, unknown> {
  expectRouteHeaders(reply);
  return withoutHostHeaders(contractView(reply));
}

/** The exact answer of a plant created (or replayed, when `replayed`) with this name. */
const answered = (name: string, replayed = false) =>
  withoutHostHeaders(
    expectedView({
      name: 'created',
      body: '',
      status: 200,
      answer: { name },
      ...(replayed ? { extra: { 'idempotent-replayed': 'true' } } : {}),
    }),
  );

/** The exact answer of a refusal with this status, challenge and message. */
const refusedWith = (status: number, message: string, challenge?: string) =>
  withoutHostHeaders(
    expectedView({
      name: 'refused',
      body: '',
      status,
      answer: message,
      ...(challenge === undefined ? {} : { extra: { 'www-authenticate': challenge } }),
    }),
  );

/**
 * Ids per tenant (the service's `tenant` option, here the `tid` claim), on a host of their own:
 * the same id in two tenants is two plants, each replayed only in its tenant and only to its
 * creator; a token that names no tenant, or a bad one, is refused 401 before the store is asked.
 *
 * @param suite - the target's suite
 */
export function describeTenants(suite: ContractSuite): void {
  const { id, test, group } = suite;
  group('ids per tenant', ['created', 'store', 'auth'], () => {
    let host: ContractHost;
    let store: MemoryStore;
    const rejected: PlantServiceError[] = [];
    const tokenOf = (claims: Record<string, unknown>) =>
      suite.issuer.sign({ scope: SCOPE, ...claims });
    const postAs = async (claims: Record<string, unknown>, body: string) =>
      postPlant(host.url, await tokenOf(claims), body);

    beforeAll(async () => {
      store = memoryStore();
      host = await suite.target.start(
        {
          store,
          auth: suite.auth(),
          tenant: CLAIM,
          onRejected: (error) => void rejected.push(error),
        },
        suite.setup(),
      );
    });
    afterAll(async () => {
      await host?.close();
    });

    test(
      'tenant.same-id',
      ['created', 'store'],
      'creates the same id in two tenants as two plants, each replayed only in its own tenant',
      async () => {
        const plantId = id();
        const alpha = `{"id":${plantId},"name":"Alpha"}`;
        const beta = `{"id":${plantId},"name":"Beta"}`;
        const inA = { [CLAIM]: 'tenant-a' };
        const inB = { [CLAIM]: 'tenant-b' };
        expect(viewOf(await postAs(inA, alpha))).toStrictEqual(answered('Alpha'));
        expect(viewOf(await postAs(inB, beta))).toStrictEqual(answered('Beta'));
        expect(viewOf(await postAs(inA, alpha))).toStrictEqual(answered('Alpha', true));
        expect(viewOf(await postAs(inB, beta))).toStrictEqual(answered('Beta', true));
        // Tenant B's plant under the id is Beta: Alpha there is a conflict, not A's replay.
        expect(viewOf(await postAs(inB, alpha))).toStrictEqual(refusedWith(409, CONFLICT));
        const kept = (tenant: string) => {
          const {
            name,
            tenant: storedTenant,
            createdBy,
          } = store.get(BigInt(plantId), tenant) ?? {};
          return { name, tenant: storedTenant, createdBy };
        };
        expect([kept('tenant-a'), kept('tenant-b'), kept('')]).toStrictEqual([
          { name: 'Alpha', tenant: 'tenant-a', createdBy: 'test-user' },
          { name: 'Beta', tenant: 'tenant-b', createdBy: 'test-user' },
          { name: undefined, tenant: undefined, createdBy: undefined },
        ]);
      },
    );

    test(
      'tenant.owner',
      ['created', 'store'],
      "answers another caller's identical create in the same tenant exactly as a conflict",
      async () => {
        const plantId = id();
        const body = `{"id":${plantId},"name":"Owned","tag":"t"}`;
        const inA = { [CLAIM]: 'tenant-a' };
        expect((await postAs(inA, body)).status).toBe(200);
        const guess = await postAs({ ...inA, sub: 'another-user' }, body);
        const conflict = await postAs(inA, `{"id":${plantId},"name":"Other","tag":"t"}`);
        expect(viewOf(guess)).toStrictEqual(refusedWith(409, CONFLICT));
        expect(viewOf(guess)).toStrictEqual(viewOf(conflict));
        expect(rejected.slice(-2).map((error) => error.code)).toStrictEqual([
          'id_conflict',
          'id_conflict',
        ]);
      },
    );

    const REFUSALS = [
      ['no tenant claim', {}, 'tenant_missing', 'The token names no tenant'],
      ['an empty tenant', { [CLAIM]: '' }, 'tenant_missing', 'The token names no tenant'],
      [
        'a tenant with a space',
        { [CLAIM]: 'a b' },
        'tenant_invalid',
        'The token names no valid tenant',
      ],
      [
        'a tenant with a brace',
        { [CLAIM]: '{a}' },
        'tenant_invalid',
        'The token names no valid tenant',
      ],
      [
        'a tenant of 129 characters',
        { [CLAIM]: 't'.repeat(129) },
        'tenant_invalid',
        'The token names no valid tenant',
      ],
      [
        'a tenant that is a number',
        { [CLAIM]: 42 },
        'tenant_invalid',
        'The token names no valid tenant',
      ],
    ] as const;
    for (const [what, claims, code, description] of REFUSALS) {
      test(
        `tenant.${code === 'tenant_missing' ? 'missing' : 'invalid'}.${what.replaceAll(' ', '-')}`,
        ['auth'],
        `answers a token with ${what} 401 ${code}, and asks no store`,
        async () => {
          const before = store.size;
          const reply = await postAs(claims, `{"id":${id()},"name":"Nowhere"}`);
          expect(viewOf(reply)).toStrictEqual(
            refusedWith(
              401,
              `The bearer token is not valid: ${description}`,
              `Bearer realm="plantstore", error="invalid_token", error_description="${description}"`,
            ),
          );
          expect(rejected.at(-1)?.code).toBe(code);
          expect(store.size).toBe(before);
        },
      );
    }
  });
}

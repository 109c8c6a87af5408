import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import type { Principal } from '../auth/principal';
import { deadlineList } from '../common/deadline-list';
import { isPlantServiceError } from '../errors/plant-service-error';
import { insertPlant } from '../plant/insert-plant';
import { isSameOwner } from '../plant/owner';
import type { PlantRecord, StoredPlant } from '../plant/plant';
import { plantRecord } from '../plant/plant-record';
import type { PlantStore } from '../plant/store';
import { conformanceContext as context, conformanceRecord as record } from './store-context';

type Register = (name: string, body: () => Promise<void>) => unknown;
type WithStore<S extends PlantStore> = (test: (store: S) => Promise<void>) => () => Promise<void>;

const alice: Principal = {
  subject: 'alice',
  scopes: [],
  claims: { sub: 'alice', client_id: 'app-1', jti: 'jti-alice-1' },
};
const mallory: Principal = { subject: 'mallory', scopes: [], claims: { sub: 'mallory' } };

// Tenants whose characters are key separators somewhere (Redis `:`, DynamoDB `#`), letter case,
// and the longest a tenant may be.
const TENANTS = ['org-a', 'ORG-A', 'a:1', 'a#1|x', 't'.repeat(128)] as const;

/**
 * The core's decision on what the store reports, as the route makes it: `created`, `replayed`, or
 * the status it is refused with (409 for a conflict).
 */
async function decide(
  store: PlantStore,
  plant: PlantRecord,
  principal: Principal,
): Promise<'created' | 'replayed' | number> {
  const deadlines = deadlineList();
  const limits = { timeoutMs: 30_000, retryAfter: 5, deadlines, isOwner: isSameOwner };
  try {
    return (await insertPlant(store, plant, principal, limits)) ? 'created' : 'replayed';
  } catch (error) {
    if (isPlantServiceError(error)) return error.status;
    throw error;
  } finally {
    deadlines.stop();
  }
}

async function storedUnder(store: PlantStore, again: PlantRecord): Promise<StoredPlant> {
  const result = await store.insert(again, context());
  ok(!result.created, `insert must resolve { created: false, existing } for id ${again.id}`);
  return result.existing;
}

/**
 * The cases of the owner rule and of ids per tenant: what a store keeps beside the plant comes back
 * through `existing`, the key is `(tenant, id)`, and the core refuses another caller's replay with
 * the 409 of a conflict on what the store reports.
 *
 * @param it - the runner's `it`
 * @param withStore - wraps a test with a fresh store
 */
export function describeStoreOwnerCases<S extends PlantStore>(
  it: Register,
  withStore: WithStore<S>,
): void {
  it(
    'keeps the tenant, owner, client, creation time and token id beside the plant',
    withStore(async (store) => {
      const createdAt = new Date('2026-03-04T05:06:07.089Z');
      const kept = { tenant: 'org-a', createdBy: 'alice', clientId: 'app-1', tokenId: 'jti-1' };
      await store.insert(record({ id: 500n, name: 'Audited' }, { ...kept, createdAt }), context());
      const stored = await storedUnder(store, record({ id: 500n, name: 'x' }, { tenant: 'org-a' }));
      const rule =
        'existing must carry the audit fields stored with the plant (tenant, createdBy, clientId, ' +
        'createdAt to the millisecond, tokenId), not those of the insert that found it';
      deepStrictEqual(
        {
          tenant: stored.tenant,
          createdBy: stored.createdBy,
          clientId: stored.clientId,
          tokenId: stored.tokenId,
          createdAt: stored.createdAt?.getTime(),
        },
        { ...kept, createdAt: createdAt.getTime() },
        rule,
      );
      ok(stored.createdAt instanceof Date, `${rule}: createdAt must be a Date`);
      await store.insert(
        record({ id: 501n, name: 'Anonymous' }, { createdBy: undefined, clientId: undefined }),
        context(),
      );
      const bare = await storedUnder(store, record({ id: 501n, name: 'x' }));
      deepStrictEqual(
        [bare.createdBy ?? undefined, bare.clientId ?? undefined, bare.tokenId ?? undefined],
        [undefined, undefined, undefined],
        'a field the token did not have must come back absent (undefined or null), not as text',
      );
    }),
  );

  it(
    'keeps the same id in two tenants as two plants',
    withStore(async (store) => {
      const id = 9_007_199_254_740_993n;
      await store.insert(record({ id, name: 'no tenant' }), context());
      for (const tenant of TENANTS) {
        deepStrictEqual(
          await store.insert(record({ id, name: `plant of ${tenant}` }, { tenant }), context()),
          { created: true },
          `id ${id} in tenant ${JSON.stringify(tenant)} is a plant of its own: key rows by ` +
            '(tenant, id), with tenant text compared byte for byte',
        );
      }
      for (const tenant of TENANTS) {
        const stored = await storedUnder(store, record({ id, name: 'x' }, { tenant }));
        strictEqual(stored.name, `plant of ${tenant}`, `tenant ${JSON.stringify(tenant)}`);
      }
      strictEqual((await storedUnder(store, record({ id, name: 'x' }))).name, 'no tenant');
    }),
  );

  it(
    'answers an identical create by another caller 409, and the creator\u2019s own retry 200',
    withStore(async (store) => {
      const first = plantRecord({ id: 510n, name: 'Mine', tag: 't' }, alice, 'org-a', new Date());
      strictEqual(await decide(store, first, alice), 'created');
      const guess = plantRecord({ id: 510n, name: 'Mine', tag: 't' }, mallory, 'org-a', new Date());
      strictEqual(
        await decide(store, guess, mallory),
        409,
        'another caller\u2019s identical create must be the 409 of a conflict: report the stored ' +
          'createdBy and clientId, not the asker\u2019s',
      );
      const retry = plantRecord({ id: 510n, name: 'Mine', tag: 't' }, alice, 'org-a', new Date());
      strictEqual(
        await decide(store, retry, alice),
        'replayed',
        'the creator\u2019s retry replays',
      );
    }),
  );
}

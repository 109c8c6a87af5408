import { ok, strictEqual } from 'node:assert/strict';
import type { PlantStore } from '../plant/store';
import { conformanceContext, conformanceRecord } from './store-context';

/**
 * Registers the case of `describeStoreConformance` that needs two instances of one backend, as two
 * instances of the service have: a lock held in one process does not make the insert atomic.
 *
 * @param it - the runner's `it`
 * @param withStore - runs a test on a fresh store
 * @param createPeer - opens a second instance on the backend of a store
 */
export function describeStorePeerCases<S extends PlantStore>(
  it: (name: string, body: () => Promise<void>) => unknown,
  withStore: (test: (store: S) => Promise<void>) => () => Promise<void>,
  createPeer: (store: S) => S | Promise<S>,
): void {
  it(
    'creates each id exactly once under concurrent inserts split across two instances',
    withStore(async (store) => {
      const peer = await createPeer(store);
      const attempts = Array.from({ length: 400 }, (_, index) => ({
        id: BigInt(2_000 + (index % 50)),
        name: `attempt ${index}`,
        // Each id's inserts alternate between the two instances.
        store: Math.floor(index / 50) % 2 === 0 ? store : peer,
      }));
      const results = await Promise.all(
        attempts.map(({ id, name, store: on }) =>
          on.insert(conformanceRecord({ id, name }), conformanceContext()),
        ),
      );
      const rule =
        'two instances on one backend must create each id once, as two instances of the service ' +
        'do: make the insert atomic on the server (SET NX, INSERT … ON CONFLICT DO NOTHING), not ' +
        'with a lock of the process';
      const winners = new Map<bigint, string>();
      results.forEach((result, index) => {
        const { id, name } = attempts[index] ?? { id: 0n, name: '' };
        if (!result.created) return;
        ok(!winners.has(id), `${rule}; id ${id} was created twice`);
        winners.set(id, name);
      });
      strictEqual(winners.size, 50, `${rule}; this many of 50 ids were created`);
      results.forEach((result, index) => {
        const { id } = attempts[index] ?? { id: 0n };
        if (!result.created) {
          strictEqual(result.existing.name, winners.get(id), `${rule}; id ${id} reported another`);
        }
      });
    }),
  );
}

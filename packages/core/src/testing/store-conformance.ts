import { deepStrictEqual, ok, rejects, strictEqual } from 'node:assert/strict';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import type { NewPlant } from '../plant/plant';
import type { Principal } from '../auth/principal';
import type { InsertResult, PlantStore, StoreContext } from '../plant/store';

/**
 * The two functions of a test runner the suite registers with: vitest's and jest's `describe`/`it`
 * fit, and so does `node:test`.
 */
export interface TestRegistrar {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: () => Promise<void>) => unknown;
}

/** How the suite gets a store to test. */
export interface StoreConformanceOptions<S extends PlantStore = PlantStore> {
  /** Returns a fresh, empty store; called before every test. */
  readonly create: () => S | Promise<S>;
  /** Releases a store after its test. */
  readonly destroy?: ((store: S) => void | Promise<void>) | undefined;
}

const CREATED: InsertResult = { created: true };

const principal: Principal = { subject: 'conformance', scopes: [], claims: {} };

function context(signal: AbortSignal = new AbortController().signal): StoreContext {
  return { principal, signal };
}

function plant(id: bigint, name: string, tag?: string): NewPlant {
  return tag === undefined ? { id, name } : { id, name, tag };
}

function existingOf(result: InsertResult): NewPlant {
  if (result.created) throw new Error('expected the store to report an existing plant');
  return result.existing;
}

/**
 * Registers the conformance suite of {@link PlantStore} with your test runner: every store, ours
 * and yours, must pass it. Failures are `node:assert` errors, which every runner reports.
 *
 * What it checks: creation, the existing plant reported unchanged under the id asked for (the core
 * answers a store that reports another id with a 500), exact int64 ids, atomicity under concurrent
 * inserts of one id, and the abort signal. What a store throws is the core's to map: throw
 * `ServiceUnavailableError('store_unavailable', …)` when the backend cannot be reached, or let the
 * driver's error through: Node network errors (`ECONNREFUSED`, `ECONNRESET`, …) and retryable
 * SQLSTATEs (class 08, 53, 57P01–57P03, 40001, 40P01) answer 503 with `Retry-After`, anything else 500.
 *
 * @param runner - `{ describe, it }` of vitest (or jest, or node:test)
 * @param name - the store's name, for the report
 * @param options - how to create (and destroy) a fresh, empty store
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { describeStoreConformance } from '@plantstore/core/testing';
 * describeStoreConformance({ describe, it }, 'redis store', { create: () => redisStore({ client }) });
 * ```
 */
export function describeStoreConformance<S extends PlantStore>(
  runner: TestRegistrar,
  name: string,
  options: StoreConformanceOptions<S>,
): void {
  const { describe, it } = runner;
  describe(`PlantStore conformance: ${name}`, () => {
    const withStore = (test: (store: S) => Promise<void>) => async () => {
      const store = await options.create();
      try {
        await test(store);
      } finally {
        await options.destroy?.(store);
      }
    };

    it(
      'creates a plant that does not exist yet',
      withStore(async (store) => {
        deepStrictEqual(await store.insert(plant(1n, 'Monstera', 'aroid'), context()), CREATED);
      }),
    );

    it(
      'reports the stored plant, unchanged, when the id exists',
      withStore(async (store) => {
        await store.insert(plant(2n, 'Fern', 'pteridophyte'), context());
        const existing = existingOf(await store.insert(plant(2n, 'Other', 'x'), context()));
        strictEqual(existing.id, 2n);
        strictEqual(existing.name, 'Fern');
        strictEqual(existing.tag, 'pteridophyte');
      }),
    );

    it(
      'reports a plant stored without a tag as having no tag',
      withStore(async (store) => {
        await store.insert(plant(3n, 'Cactus'), context());
        const existing = existingOf(await store.insert(plant(3n, 'Cactus'), context()));
        strictEqual(existing.name, 'Cactus');
        strictEqual(existing.tag ?? undefined, undefined);
      }),
    );

    it(
      'keeps int64 ids exact at both ends of the range and past 2^53',
      withStore(async (store) => {
        for (const id of [
          INT64_MIN,
          INT64_MAX,
          9_007_199_254_740_993n,
          -9_007_199_254_740_993n,
          0n,
        ]) {
          deepStrictEqual(await store.insert(plant(id, `plant ${id}`), context()), CREATED);
          const existing = existingOf(await store.insert(plant(id, 'again'), context()));
          strictEqual(existing.id, id);
          strictEqual(existing.name, `plant ${id}`);
        }
      }),
    );

    it(
      'tells apart ids that a float would merge',
      withStore(async (store) => {
        deepStrictEqual(
          await store.insert(plant(9_007_199_254_740_992n, 'even'), context()),
          CREATED,
        );
        deepStrictEqual(
          await store.insert(plant(9_007_199_254_740_993n, 'odd'), context()),
          CREATED,
        );
        const existing = existingOf(
          await store.insert(plant(9_007_199_254_740_993n, 'x'), context()),
        );
        strictEqual(existing.name, 'odd');
      }),
    );

    it(
      'keeps strings exactly as given',
      withStore(async (store) => {
        const names = [
          '  padded  ',
          'Ｆｕｌｌ',
          'e\u0301',
          '\u00e9',
          '🌵 cactus',
          'a'.repeat(10_000),
          '',
          "'; DROP TABLE plants; --",
        ];
        for (const [index, name] of names.entries()) {
          const id = BigInt(100 + index);
          await store.insert(plant(id, name, name), context());
          const existing = existingOf(await store.insert(plant(id, 'x'), context()));
          strictEqual(existing.name, name);
          strictEqual(existing.tag, name);
        }
      }),
    );

    it(
      'creates each id exactly once under 1,000 concurrent inserts of 100 ids',
      withStore(async (store) => {
        const attempts = Array.from({ length: 1_000 }, (_, index) => {
          const id = BigInt(1_000 + (index % 100));
          return { id, name: `attempt ${index}` };
        });
        const results = await Promise.all(
          attempts.map(async (attempt) => ({
            attempt,
            result: await store.insert(plant(attempt.id, attempt.name), context()),
          })),
        );
        const winners = new Map<bigint, string>();
        for (const { attempt, result } of results) {
          if (result.created) {
            ok(!winners.has(attempt.id), `id ${attempt.id} was created twice`);
            winners.set(attempt.id, attempt.name);
          }
        }
        strictEqual(winners.size, 100);
        for (const { attempt, result } of results) {
          if (!result.created) strictEqual(result.existing.name, winners.get(attempt.id));
        }
      }),
    );

    it(
      'refuses to start an insert whose signal has already fired, and writes nothing',
      withStore(async (store) => {
        const controller = new AbortController();
        controller.abort(new Error('store time-out'));
        await rejects(store.insert(plant(5n, 'Aborted'), context(controller.signal)));
        deepStrictEqual(await store.insert(plant(5n, 'Fresh'), context()), CREATED);
      }),
    );

    it(
      'leaves either the whole plant or nothing when aborted during an insert',
      withStore(async (store) => {
        const controller = new AbortController();
        const pending = store.insert(plant(6n, 'Maybe', 'tag'), context(controller.signal));
        controller.abort(new Error('store time-out'));
        await pending.catch(() => undefined);
        const after = await store.insert(plant(6n, 'Maybe', 'tag'), context());
        if (!after.created) {
          strictEqual(after.existing.id, 6n);
          strictEqual(after.existing.name, 'Maybe');
          strictEqual(after.existing.tag, 'tag');
        }
      }),
    );
  });
}

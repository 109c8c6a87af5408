import { deepStrictEqual, ok, rejects, strictEqual } from 'node:assert/strict';
import { INT64_MAX, INT64_MIN } from '../body/body-limits';
import type { NewPlant } from '../plant/plant';
import type { InsertResult, PlantStore } from '../plant/store';
import { describeLifecycleCases, type SilentStoreOptions } from './lifecycle-cases';
import { conformanceContext as context, conformanceRecord as record } from './store-context';
import { describeStoreExactnessCases } from './store-exactness-cases';
import { describeStoreOwnerCases } from './store-owner-cases';
import { describeStorePeerCases } from './store-peer-cases';
import { withFreshStore } from './with-store';

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
  /**
   * Opens a second instance on the backend of `store` (another client, the same table or prefix),
   * as another instance of the service would: the suite then checks atomicity across the two. It
   * is the caller's to close.
   */
  readonly createPeer?: ((store: S) => S | Promise<S>) | undefined;
  /**
   * Builds a store on the suite's silent server (it accepts connections and never answers), for the
   * case that `ready()` answers 503 within its bound. Leave it out for a store with no backend.
   */
  readonly silent?: SilentStoreOptions<S> | undefined;
}

const CREATED: InsertResult = { created: true };

function plant(id: bigint, name: string, tag?: string): NewPlant {
  return tag === undefined ? { id, name } : { id, name, tag };
}

/** Inserts a plant whose id the store does not hold yet: it must report it created. */
async function create(store: PlantStore, fresh: NewPlant): Promise<void> {
  deepStrictEqual(
    await store.insert(record(fresh), context()),
    CREATED,
    `insert must resolve { created: true } for id ${fresh.id}, which the store does not hold yet`,
  );
}

/** Inserts `again` under an id the store holds: it must report the plant stored under that id. */
async function existing(store: PlantStore, again: NewPlant): Promise<NewPlant> {
  const result = await store.insert(record(again), context());
  ok(
    !result.created,
    `insert must resolve { created: false, existing } for id ${again.id}, which the store already ` +
      'holds; it resolved { created: true }: make the insert one atomic insert-if-absent on the id',
  );
  strictEqual(
    result.existing.id,
    again.id,
    `existing.id must be the id asked for, ${again.id}, as a bigint (a store that reports another id is answered 500)`,
  );
  return result.existing;
}

/** Names kept exactly, each with what a store that changes it gets wrong. */
const NAMES: readonly (readonly [string, string])[] = [
  ['  padded  ', 'keep leading and trailing spaces (no trimming)'],
  ['Ｆｕｌｌ', 'keep full-width letters (no Unicode normalisation)'],
  ['e\u0301', 'keep a combining accent as two code points (no NFC)'],
  ['\u00e9', 'keep a precomposed letter as one code point (no NFD)'],
  ['🌵 cactus', 'keep characters outside the BMP (a 4-byte UTF-8 column or encoding)'],
  ['a'.repeat(10_000), 'keep a name of 10,000 characters whole (no length limit below it)'],
  ['', 'keep the empty string (not null, not undefined)'],
  ["'; DROP TABLE plants; --", 'keep SQL as text (send values as parameters)'],
];

/** The rule the abort tests enforce, said once. */
const ABORTED_BEFORE =
  'insert must reject, and write nothing, when context.signal has already fired: call ' +
  'context.signal.throwIfAborted() (or check cancellation(context).aborted) before touching the backend';

/**
 * Registers the conformance suite of {@link PlantStore} with your test runner: every store, ours
 * and yours, must pass it. Failures are `node:assert` errors, which every runner reports; each one's
 * message names the rule the store broke and how a store keeps it.
 *
 * What it checks: creation, the existing plant reported unchanged under the id asked for (the core
 * answers a store that reports another id with a 500), exact int64 ids, strings returned byte for
 * byte (never merged by a collation: case, trailing space, accents), `tag: ""` apart from no tag,
 * atomicity under concurrent inserts of one id (and across two instances, given `createPeer`), the
 * key `(tenant, id)` and the audit fields kept beside the plant (so that the core refuses another
 * caller's replay), and the abort signal; and the lifecycle: `ready()` (within its bound against a
 * silent server, given `silent`), `close()` refusing new inserts with a 503 and writing nothing,
 * letting an insert in flight finish, and callable twice. What a store throws is the core's to map: throw
 * `ServiceUnavailableError('store_unavailable', …)` when the backend cannot be reached, or let the
 * driver's error through: Node network errors (`ECONNREFUSED`, `ECONNRESET`, …), the common drivers'
 * connection failures (docs/stores/custom-store.md, section 4) and retryable
 * SQLSTATEs (class 08, 53, 57P01–57P03, 40001, 40P01) answer 503 with `Retry-After`, anything else 500.
 *
 * @param runner - `{ describe, it }` of vitest (or jest, or node:test)
 * @param name - the store's name, for the report
 * @param options - how to create (and destroy) a fresh, empty store, and a peer on its backend
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
    const withStore = withFreshStore(options);

    it(
      'creates a plant that does not exist yet',
      withStore((store) => create(store, plant(1n, 'Monstera', 'aroid'))),
    );

    it(
      'reports the stored plant, unchanged, when the id exists',
      withStore(async (store) => {
        await store.insert(record(plant(2n, 'Fern', 'pteridophyte')), context());
        const stored = await existing(store, plant(2n, 'Other', 'x'));
        const rule = 'existing must be the plant stored first, not the one asked for again';
        strictEqual(stored.name, 'Fern', `${rule}: existing.name`);
        strictEqual(stored.tag, 'pteridophyte', `${rule}: existing.tag`);
      }),
    );

    it(
      'reports a plant stored without a tag as having no tag',
      withStore(async (store) => {
        await store.insert(record(plant(3n, 'Cactus')), context());
        const stored = await existing(store, plant(3n, 'Cactus'));
        strictEqual(stored.name, 'Cactus', 'existing.name must be the stored name');
        strictEqual(
          stored.tag ?? undefined,
          undefined,
          'a plant stored without a tag must come back without one (undefined or null, not a string)',
        );
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
          await create(store, plant(id, `plant ${id}`));
          strictEqual(
            (await existing(store, plant(id, 'again'))).name,
            `plant ${id}`,
            `the store must find plant ${id} under its exact id: keep ids as 64-bit integers or ` +
              'decimal text, never through a Number',
          );
        }
      }),
    );

    it(
      'tells apart ids that a float would merge',
      withStore(async (store) => {
        await create(store, plant(9_007_199_254_740_992n, 'even'));
        await create(store, plant(9_007_199_254_740_993n, 'odd'));
        strictEqual(
          (await existing(store, plant(9_007_199_254_740_993n, 'x'))).name,
          'odd',
          'ids 9007199254740992 and 9007199254740993 are two plants: never round an id through a Number',
        );
      }),
    );

    it(
      'keeps strings exactly as given',
      withStore(async (store) => {
        for (const [index, [text, rule]] of NAMES.entries()) {
          const id = BigInt(100 + index);
          await store.insert(record(plant(id, text, text)), context());
          const stored = await existing(store, plant(id, 'x'));
          strictEqual(stored.name, text, `the store must keep name and tag exactly: ${rule}`);
          strictEqual(stored.tag, text, `the store must keep name and tag exactly: ${rule}`);
        }
      }),
    );

    describeStoreExactnessCases(it, withStore);
    describeStoreOwnerCases(it, withStore);
    describeLifecycleCases(
      it,
      {
        call: (store, n) => store.insert(record(plant(BigInt(7_000 + n), 'Lifecycle')), context()),
        unwritten: async (peer, n) =>
          (await peer.insert(record(plant(BigInt(7_000 + n), 'Lifecycle')), context())).created,
        wrote: CREATED,
      },
      { withStore, createPeer: options.createPeer, silent: options.silent },
    );
    if (options.createPeer !== undefined) describeStorePeerCases(it, withStore, options.createPeer);

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
            result: await store.insert(record(plant(attempt.id, attempt.name)), context()),
          })),
        );
        const rule =
          'of concurrent inserts of one id, exactly one must resolve { created: true }: use one ' +
          'atomic insert-if-absent (SET NX, INSERT … ON CONFLICT DO NOTHING), never a read then a write';
        const winners = new Map<bigint, string>();
        for (const { attempt, result } of results) {
          if (result.created) {
            ok(!winners.has(attempt.id), `${rule}; id ${attempt.id} was created twice`);
            winners.set(attempt.id, attempt.name);
          }
        }
        strictEqual(winners.size, 100, `${rule}; this many of 100 ids were created`);
        for (const { attempt, result } of results) {
          if (!result.created) {
            strictEqual(
              result.existing.name,
              winners.get(attempt.id),
              `every insert that lost the race for id ${attempt.id} must report the winner's plant`,
            );
          }
        }
      }),
    );

    it(
      'refuses to start an insert whose signal has already fired, and writes nothing',
      withStore(async (store) => {
        const controller = new AbortController();
        controller.abort(new Error('store time-out'));
        await rejects(
          store.insert(record(plant(5n, 'Aborted')), context(controller.signal)),
          ABORTED_BEFORE,
        );
        // A store that rejects but lets its write go on would land it a moment later.
        await new Promise((resolve) => setTimeout(resolve, 100));
        deepStrictEqual(
          await store.insert(record(plant(5n, 'Fresh')), context()),
          CREATED,
          `${ABORTED_BEFORE}; a later insert of the id found a plant`,
        );
      }),
    );

    it(
      'leaves either the whole plant or nothing when aborted during an insert',
      withStore(async (store) => {
        const controller = new AbortController();
        const pending = store.insert(record(plant(6n, 'Maybe', 'tag')), context(controller.signal));
        controller.abort(new Error('store time-out'));
        await pending.catch(() => undefined);
        const after = await store.insert(record(plant(6n, 'Maybe', 'tag')), context());
        if (!after.created) {
          const { id, name, tag } = after.existing;
          deepStrictEqual(
            { id, name, tag },
            { id: 6n, name: 'Maybe', tag: 'tag' },
            'an insert aborted under way must leave the whole plant or nothing, never part of it: ' +
              'write it in one atomic step',
          );
        }
      }),
    );
  });
}

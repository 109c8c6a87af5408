import { describe, expect, it } from 'vitest';
import { memoryReplayStore } from '../auth/dpop/memory-replay-store';
import type { ReplayContext, ReplayStore } from '../auth/dpop/replay-store';
import type { PlantRecord } from '../plant/plant';
import { memoryStore } from '../plant/memory-store';
import type { InsertResult, PlantStore } from '../plant/store';
import { describeReplayStoreConformance } from './replay-store-conformance';
import { describeStoreConformance, type TestRegistrar } from './store-conformance';

// An author learns from the suite's failures what their store must do: each broken store below
// breaks one rule, and its failure must say that rule in words, not only which value differed.

/** Registers a suite with a runner that only collects its tests, to run them one at a time here. */
function testsOf(register: (runner: TestRegistrar) => void): Map<string, () => Promise<void>> {
  const tests = new Map<string, () => Promise<void>>();
  register({ describe: (_name, body) => body(), it: (name, body) => tests.set(name, body) });
  return tests;
}

/** The message a collected test fails with; throws when it passes, or is not in the suite. */
async function failureOf(tests: Map<string, () => Promise<void>>, name: string): Promise<string> {
  const test = tests.get(name);
  if (test === undefined) throw new Error(`no test named ${JSON.stringify(name)}`);
  return test().then(
    () => {
      throw new Error(`${JSON.stringify(name)} passed a store that breaks its rule`);
    },
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
}

/** A store whose every insert goes to a memory store, changed by `change` on the way. */
function broken(
  change: (
    plant: PlantRecord,
    insert: (plant: PlantRecord) => Promise<InsertResult>,
  ) => Promise<InsertResult>,
): () => PlantStore {
  return () => {
    const inner = memoryStore();
    return { insert: (plant, context) => change(plant, (p) => inner.insert(p, context)) };
  };
}

const unsignalled = { principal: { subject: 's', scopes: [], claims: {} } };
const never = (): AbortSignal => new AbortController().signal;

describe('the PlantStore conformance suite, on a store that breaks a rule, says the rule', () => {
  it.each([
    [
      'ignores the abort signal',
      () => {
        const inner = memoryStore();
        return {
          insert: (plant: PlantRecord) => inner.insert(plant, { ...unsignalled, signal: never() }),
        };
      },
      'refuses to start an insert whose signal has already fired, and writes nothing',
      'Missing expected rejection: insert must reject, and write nothing, when context.signal has ' +
        'already fired: call context.signal.throwIfAborted() (or check cancellation(context).aborted) ' +
        'before touching the backend',
    ],
    [
      'rejects an aborted insert but writes it a moment later',
      (): PlantStore => {
        const inner = memoryStore();
        return {
          insert(plant, context) {
            if (!context.signal.aborted) return inner.insert(plant, context);
            setTimeout(() => void inner.insert(plant, { ...unsignalled, signal: never() }), 20);
            return Promise.reject(new Error('store time-out'));
          },
        };
      },
      'refuses to start an insert whose signal has already fired, and writes nothing',
      'insert must reject, and write nothing, when context.signal has already fired: call ' +
        'context.signal.throwIfAborted() (or check cancellation(context).aborted) before touching ' +
        'the backend; a later insert of the id found a plant',
    ],
    [
      'reports every insert as created',
      broken(async (plant, insert) => (await insert(plant), { created: true })),
      'reports the stored plant, unchanged, when the id exists',
      'insert must resolve { created: false, existing } for id 2, which the store already holds; it ' +
        'resolved { created: true }: make the insert one atomic insert-if-absent on the id',
    ],
    [
      'keys plants by a Number',
      broken((plant, insert) => insert({ ...plant, id: BigInt(Number(plant.id)) })),
      'tells apart ids that a float would merge',
      'insert must resolve { created: true } for id 9007199254740993, which the store does not hold yet',
    ],
    [
      'trims names',
      broken((plant, insert) => insert({ ...plant, name: plant.name.trim() })),
      'keeps strings exactly as given',
      'the store must keep name and tag exactly: keep leading and trailing spaces (no trimming)',
    ],
    [
      'answers the plant asked for when a collation calls it equal to the stored one',
      () => {
        const inner = memoryStore();
        const store: PlantStore = {
          async insert(plant, context) {
            const result = await inner.insert(plant, context);
            if (result.created) return result;
            const same = (a = '', b = '') =>
              a.toLowerCase().trimEnd() === b.toLowerCase().trimEnd();
            const { name, tag } = result.existing;
            return same(name, plant.name) && same(tag, plant.tag)
              ? { created: false, existing: plant }
              : result;
          },
        };
        return store;
      },
      'reports the stored name and tag byte for byte, never one a collation calls equal',
      'existing must be the plant as stored, byte for byte, not the one asked for: letter case (a ' +
        'case-insensitive collation, *_ci) must not make two values one; compare bytes (a binary ' +
        'column or collation) or let the core compare',
    ],
    [
      'reads, then writes',
      () => {
        const plants = new Map<bigint, PlantRecord>();
        const store: PlantStore = {
          async insert(plant) {
            const existing = plants.get(plant.id);
            await new Promise((resolve) => setImmediate(resolve));
            if (existing !== undefined) return { created: false, existing };
            plants.set(plant.id, plant);
            return { created: true };
          },
        };
        return store;
      },
      'creates each id exactly once under 1,000 concurrent inserts of 100 ids',
      'of concurrent inserts of one id, exactly one must resolve { created: true }: use one atomic ' +
        'insert-if-absent (SET NX, INSERT … ON CONFLICT DO NOTHING), never a read then a write; id ' +
        '1000 was created twice',
    ],
  ])('a store that %s', async (_what, create, test, rule) => {
    const tests = testsOf((runner) =>
      describeStoreConformance<PlantStore>(runner, 'broken', { create }),
    );
    expect((await failureOf(tests, test)).split('\n')[0]).toBe(rule);
  });
});

describe('the PlantStore conformance suite, given createPeer', () => {
  it('says the rule to a store that is atomic only within its own process', async () => {
    // One backend (a Map), and a lock per instance around a read, then a write.
    const backend = new Map<bigint, PlantRecord>();
    const instance = (): PlantStore => {
      let lock: Promise<unknown> = Promise.resolve();
      return {
        insert(plant) {
          const turn = lock.then(async () => {
            const existing = backend.get(plant.id);
            await new Promise((resolve) => setImmediate(resolve));
            if (existing !== undefined) return { created: false as const, existing };
            backend.set(plant.id, plant);
            return { created: true as const };
          });
          lock = turn.catch(() => undefined);
          return turn;
        },
      };
    };
    const tests = testsOf((runner) =>
      describeStoreConformance(runner, 'broken', { create: instance, createPeer: instance }),
    );
    expect(
      (
        await failureOf(
          tests,
          'creates each id exactly once under concurrent inserts split across two instances',
        )
      ).split(';')[0],
    ).toBe(
      'two instances on one backend must create each id once, as two instances of the service do: ' +
        'make the insert atomic on the server (SET NX, INSERT … ON CONFLICT DO NOTHING), not with a ' +
        'lock of the process',
    );
  });

  it('passes the memory store with itself as its peer', async () => {
    const tests = testsOf((runner) =>
      describeStoreConformance(runner, 'memory', { create: memoryStore, createPeer: (s) => s }),
    );
    const peerCase = tests.get(
      'creates each id exactly once under concurrent inserts split across two instances',
    );
    await peerCase?.();
    expect(peerCase).toBeDefined();
  });
});

/** A replay store whose every call goes to a memory replay store, with the context changed. */
function brokenReplay(change: (context: ReplayContext) => ReplayContext): () => ReplayStore {
  return () => {
    const inner = memoryReplayStore();
    return {
      remember: (key, expiresAt, context) => inner.remember(key, expiresAt, change(context)),
    };
  };
}

describe('the ReplayStore conformance suite, on a store that breaks a rule, says the rule', () => {
  it.each([
    [
      'ignores the abort signal',
      brokenReplay(({ now }) => ({ now, signal: never() })),
      undefined,
      'refuses a call whose signal has already fired, and remembers nothing',
      'Missing expected rejection: remember must reject, and remember nothing, when context.signal ' +
        'has already fired: call context.signal.throwIfAborted() (or check ' +
        'cancellation(context).aborted) before touching the backend',
    ],
    [
      "judges expiry by its own clock, not the context's",
      brokenReplay(({ signal }) => ({ now: Date.now(), signal })),
      undefined,
      "forgets a key once its expiresAt is not after the context's now, without waiting",
      'a key whose expiresAt is not after context.now has expired: remember must resolve true and ' +
        "hold it again until its new expiresAt; judge expiry by context.now alone, never the backend's " +
        'clock; here its expiresAt equals now',
    ],
    [
      'keeps its keys from its other instances',
      () => memoryReplayStore(),
      () => memoryReplayStore(),
      'sees the keys another instance on the same backend remembered',
      'two stores on one backend must share their keys, as every instance of the service does: the ' +
        'peer saw no key',
    ],
  ])('a store that %s', async (_what, create, createPeer, test, rule) => {
    const tests = testsOf((runner) =>
      describeReplayStoreConformance(runner, 'broken', { create, createPeer }),
    );
    expect((await failureOf(tests, test)).split('\n')[0]).toBe(rule);
  });
});

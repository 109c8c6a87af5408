import { deepStrictEqual, ok, strictEqual } from 'node:assert/strict';
import type { NewPlant } from '../plant/plant';
import type { PlantStore } from '../plant/store';
import { conformanceContext as context, conformanceRecord as record } from './store-context';

type Register = (name: string, body: () => Promise<void>) => unknown;
type WithStore<S extends PlantStore> = (test: (store: S) => Promise<void>) => () => Promise<void>;

/**
 * Pairs of strings an engine's default comparison calls equal and the contract calls two values:
 * the first is stored, the second asked for again under the same id.
 */
const LOOK_ALIKES: readonly { stored: string; asked: string; what: string }[] = [
  { stored: 'Fern', asked: 'fern', what: 'letter case (a case-insensitive collation, *_ci)' },
  {
    stored: 'Fern',
    asked: 'Fern ',
    what: 'a trailing space (a PAD SPACE collation, MariaDB and MySQL 5.7)',
  },
  { stored: 'Fern ', asked: 'Fern', what: 'a trailing space stored (a CHAR column, or trimming)' },
  { stored: 'Férn', asked: 'Fern', what: 'an accent (an accent-insensitive collation, *_ai)' },
  {
    stored: '\u00e9',
    asked: 'e\u0301',
    what: 'NFC against NFD (a normalising collation or client)',
  },
  { stored: '🌵', asked: '🌱', what: 'two 4-byte characters (a utf8mb3 column stores both as ?)' },
];

/** Inserts under an id the store holds: it must report the plant stored there. */
async function storedUnder(store: PlantStore, again: NewPlant): Promise<NewPlant> {
  const result = await store.insert(record(again), context());
  ok(!result.created, `insert must resolve { created: false, existing } for id ${again.id}`);
  return result.existing;
}

/**
 * The cases every store must pass whatever its engine's defaults: the stored `name` and `tag`
 * returned byte for byte, so that the core, not a collation, decides between replay and conflict;
 * and `tag: ""` kept apart from no tag.
 *
 * @param it - the runner's `it`
 * @param withStore - wraps a test with a fresh store
 */
export function describeStoreExactnessCases<S extends PlantStore>(
  it: Register,
  withStore: WithStore<S>,
): void {
  it(
    'reports the stored name and tag byte for byte, never one a collation calls equal',
    withStore(async (store) => {
      for (const [index, { stored, asked, what }] of LOOK_ALIKES.entries()) {
        const id = BigInt(200 + index);
        await store.insert(record({ id, name: stored, tag: stored }), context());
        const existing = await storedUnder(store, { id, name: asked, tag: asked });
        const rule =
          `existing must be the plant as stored, byte for byte, not the one asked for: ${what} ` +
          'must not make two values one; compare bytes (a binary column or collation) or let the ' +
          'core compare';
        deepStrictEqual([existing.name, existing.tag], [stored, stored], rule);
      }
    }),
  );

  it(
    'stores look-alike names under their own ids as two plants',
    withStore(async (store) => {
      for (const [index, { stored: first, asked: second }] of LOOK_ALIKES.entries()) {
        const id = BigInt(300 + 2 * index);
        for (const [offset, name] of [first, second].entries()) {
          deepStrictEqual(
            await store.insert(record({ id: id + BigInt(offset), name }), context()),
            { created: true },
            `a plant named ${JSON.stringify(name)} under a new id must be created: no unique ` +
              'index or collation may tie it to another name',
          );
          strictEqual(
            (await storedUnder(store, { id: id + BigInt(offset), name: 'x' })).name,
            name,
          );
        }
      }
    }),
  );

  it(
    'keeps an empty tag apart from no tag',
    withStore(async (store) => {
      await store.insert(record({ id: 400n, name: 'Empty tag', tag: '' }), context());
      strictEqual(
        (await storedUnder(store, { id: 400n, name: 'Empty tag' })).tag,
        '',
        'a plant stored with tag "" must come back with tag "", not without one (NULL is no tag)',
      );
      await store.insert(record({ id: 401n, name: 'No tag' }), context());
      strictEqual(
        (await storedUnder(store, { id: 401n, name: 'No tag', tag: '' })).tag ?? undefined,
        undefined,
        'a plant stored without a tag must come back without one, not with tag ""',
      );
    }),
  );
}

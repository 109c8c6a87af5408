import { plantBody } from './plant-body';

/** A plant with an exact id, as a concurrency scenario sends and later finds it. */
export interface ExactPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string | undefined;
}

/** One create of a concurrency scenario: the plant its body means, and the body. */
export interface CreateAttempt {
  readonly plant: ExactPlant;
  readonly body: string;
}

/** The same name in another Unicode normal form, or with a trailing space when it has only one. */
function otherSpelling(name: string): string {
  if (name.normalize('NFC') !== name) return name.normalize('NFC');
  return name.normalize('NFD') === name ? `${name} ` : name.normalize('NFD');
}

/** The plant spelt otherwise: members reordered, an ignored member, the id written `n.0`. */
function respelled({ id, name, tag }: ExactPlant): string {
  const tagMember = tag === undefined ? '' : `"tag": ${JSON.stringify(tag)}, `;
  return `{"extra": [1, {"ignored": null}], ${tagMember}"name": ${JSON.stringify(name)}, "id": ${id}.0}`;
}

/**
 * Ten creates of each plant, shuffled: five identical bodies, one spelt otherwise, and four that
 * conflict (another name, another tag, a tag added or removed, the name in another Unicode normal
 * form). Exactly one create per plant may store it; the identical and respelled ones then replay
 * (200), the conflicting ones answer 409, whichever comes first.
 *
 * @param plants - the plants, one id each
 * @param seed - the shuffle's seed, so that a failing order can be replayed
 * @returns the creates, in the order to send them
 * @example
 * const attempts = concurrentCreates(plants, 20_260_101);
 * const replies = await inFlight(attempts, 200, (attempt) => postPlant(url, token, attempt.body));
 */
export function concurrentCreates(plants: readonly ExactPlant[], seed: number): CreateAttempt[] {
  const attempts = plants.flatMap((same): CreateAttempt[] => {
    const { id, name, tag } = same;
    const conflicting: ExactPlant[] = [
      { id, name: `${name}!`, tag },
      { id, name, tag: 'other' },
      tag === undefined ? { id, name, tag: 'added' } : { id, name },
      { id, name: otherSpelling(name), tag },
    ];
    return [
      ...Array.from({ length: 5 }, () => ({ plant: same, body: plantBody(same) })),
      { plant: same, body: respelled(same) },
      ...conflicting.map((plant) => ({ plant, body: plantBody(plant) })),
    ];
  });
  return seededShuffle(attempts, seed);
}

/**
 * Shuffles in place with a linear congruential generator, so that a failing order can be replayed.
 *
 * @param items - the items
 * @param seed - any integer
 * @returns the same array, shuffled
 */
export function seededShuffle<T>(items: T[], seed: number): T[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  for (let index = items.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/**
 * Runs `run` on every item with at most `concurrency` at once, as that many clients would.
 *
 * @param items - the work, taken in order
 * @param concurrency - clients at once
 * @param run - one item's work, given its index
 * @returns the results, in the order the items finished
 */
export async function inFlight<T, R>(
  items: readonly T[],
  concurrency: number,
  run: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const client = async (): Promise<void> => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results.push(await run(items[index] as T, index));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return results;
}

import type { NewPlant } from '../plant/plant';
import type { InsertResult } from '../plant/store';

/** The two steps of an insert on an engine that reports a taken id without the plant. */
export interface InsertOrReadSteps {
  /**
   * Tries the insert-if-absent: `true` when it created the plant, `false` when the id is taken, or
   * the stored plant when the engine hands it back with its refusal.
   */
  readonly insert: () => Promise<boolean | NewPlant>;
  /** Reads the plant under the id (see `storedPlant`); `undefined` when there is none. */
  readonly read: () => Promise<NewPlant | undefined>;
}

const CREATED: InsertResult = Object.freeze({ created: true });

/**
 * Inserts, or reads the plant that holds the id. Each step is its own statement, so the read sees a
 * row a concurrent insert committed. Stores never delete a plant; if one vanished between the two
 * steps (deleted by hand), the insert is tried once more, then it fails.
 *
 * @param store - the store's name, for the message
 * @param id - the plant's id, for the message
 * @param steps - the insert and the read
 * @returns what the core judges: created, or the plant stored first
 * @throws Error when the id was neither inserted nor found, twice (the core answers 500)
 * @example
 * ```ts
 * return insertOrRead('myStore', plant.id, {
 *   insert: async () => (await db.insertIgnore(plant)).inserted,
 *   read: async () => storedPlant(await db.get(plant.id), plant.id, 'myStore'),
 * });
 * ```
 */
export async function insertOrRead(
  store: string,
  id: bigint,
  steps: InsertOrReadSteps,
): Promise<InsertResult> {
  for (let round = 0; round < 2; round += 1) {
    const inserted = await steps.insert();
    if (inserted === true) return CREATED;
    const existing = inserted === false ? await steps.read() : inserted;
    if (existing !== undefined) return { created: false, existing };
  }
  throw new Error(`${store}: id ${id} was neither inserted nor found, twice.`);
}

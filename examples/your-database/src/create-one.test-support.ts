import { storeRecord } from '@plantstore/core/testing';
import { randomBytes } from 'node:crypto';
import type { NewPlant, PlantStore } from '@plantstore/core';
import { expect } from 'vitest';

/** A plant the store just created. */
export type Created = NewPlant;

/**
 * Ensures the store's table, then creates a plant under a random int64 id (the snippets share the
 * default table `plants`, also with each other's runs) and expects the store to report it created.
 *
 * @param store - the snippet's store
 * @returns the plant created
 */
export async function createOne(store: PlantStore & { ensureSchema(): Promise<void> }) {
  await store.ensureSchema();
  const plant: Created = {
    id: randomBytes(8).readBigInt64BE(),
    name: 'Monstera 🌿',
    tag: 'aroid',
  };
  const result = await store.insert(storeRecord(plant), {
    principal: { subject: 'your-database example', scopes: [], claims: {} },
    signal: new AbortController().signal,
  });
  expect(result).toEqual({ created: true });
  return plant;
}

import { memoryStore, type PlantStore } from '@plantstore/core';

/**
 * Where the example keeps its plants. For now the memory store (gone on restart); the embedded
 * durable store of `@plantstore/postgres` (PGlite) replaces it here, and only here.
 *
 * @returns the store the app's plants route writes to
 */
export function createStore(): PlantStore {
  return memoryStore();
}

import type { NewPlant, PlantStore } from '@plantstore/core';

/**
 * Values for the names the blocks take as given (`test/snippet-globals.d.ts` declares their types):
 * settings that look like a provider's, a store, a database. Nothing here is reached over the
 * network: a dry run leaves out every call that would.
 *
 * @param memoryStore - the core's `memoryStore`, as the blocks import it
 * @returns the values, by name
 */
export function snippetValues(memoryStore: () => PlantStore): Record<string, unknown> {
  const rows = new Map<string, NewPlant>();
  return {
    jwksUri: 'https://issuer.example/.well-known/jwks.json',
    issuer: 'https://issuer.example/',
    audience: 'https://plants.example',
    secret: 'a-shared-secret-of-at-least-32-bytes!',
    store: memoryStore(),
    // Connections no block reaches: the sinks' factories only check their shape.
    amqpConnection: { createConfirmChannel: () => Promise.reject(new Error('not connected')) },
    natsConnection: { request: () => Promise.reject(new Error('not connected')) },
    db: {
      insertIfAbsent: (key: string, value: NewPlant) =>
        Promise.resolve(rows.has(key) ? false : (rows.set(key, value), true)),
      get: (key: string) => Promise.resolve(rows.get(key)),
    },
  };
}

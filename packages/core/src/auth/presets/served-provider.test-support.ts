import { afterAll, beforeAll } from 'vitest';
import type { ProviderFixture } from './provider-fixture.test-support';
import { providerKeys, type ProviderKeys } from './provider-keys.test-support';
import { serveProvider, type ProviderServer } from './provider-server.test-support';

/** A provider's keys, made for the run, and the server answering its real key-set URLs. */
export interface ServedProvider {
  readonly keys: ProviderKeys;
  readonly server: ProviderServer;
}

/**
 * Serves one provider's key sets for a `describe` block: started before its tests, closed after.
 *
 * @param fixture - the provider's documented formats
 * @returns the keys and the server, once started
 */
export function useServedProvider(fixture: ProviderFixture): () => ServedProvider {
  let served: ServedProvider | undefined;
  beforeAll(async () => {
    const keys = providerKeys(fixture);
    served = { keys, server: await serveProvider(keys.documents) };
  }, 60_000);
  afterAll(() => served?.server.close());
  return () => {
    if (served === undefined) throw new Error('The provider is served in beforeAll');
    return served;
  };
}

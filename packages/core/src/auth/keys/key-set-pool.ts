import { createRemoteKeySet, type RemoteKeySet, type RemoteKeySetConfig } from './remote-key-set';

/** Hands out one {@link RemoteKeySet} per JWKS URL. */
export type KeySetPool = (url: URL, config: RemoteKeySetConfig) => RemoteKeySet;

/**
 * Creates a pool that holds one remote key set per JWKS URL (compared as the WHATWG parser writes
 * it), so issuers that publish their keys at one URL (the tenants of Entra ID, say) share its cache,
 * back-off and fetches: the bound of one fetch a second then holds per provider, not per issuer. The
 * first caller's config makes the key set; `jwtBearer`'s options refuse entries that give one URL
 * different tuning, so every caller's is the same.
 *
 * @returns the pool: a URL and its config in, the key set of that URL out
 * @example
 * ```ts
 * const keySetOf = createKeySetPool();
 * keySetOf(new URL(JWKS), config) === keySetOf(new URL(JWKS), config); // true
 * ```
 */
export function createKeySetPool(): KeySetPool {
  const byUrl = new Map<string, RemoteKeySet>();
  return (url, config) => {
    let keySet = byUrl.get(url.href);
    if (keySet === undefined) {
      keySet = createRemoteKeySet(url, config);
      byUrl.set(url.href, keySet);
    }
    return keySet;
  };
}

/** How many hash-tag buckets the plants' keys spread over by default. */
export const DEFAULT_BUCKETS = 16;

/**
 * The key of a plant: `${prefix}{${bucket}}${tenant}:${id}`. The hash tag is a bucket, a hash of
 * tenant and id, so that a Cluster spreads the plants over as many slots as there are buckets (an id
 * as the tag put every tenant's id 5 in one slot) and a later per-bucket stream can share its slot.
 * The id, digits only, is after the last `:`, so no tenant can make another tenant's key.
 *
 * @param prefix - the store's prefix, without braces
 * @param buckets - how many buckets, 1 to 16384
 * @param tenant - the plant's tenant, `''` when tenants are off
 * @param id - the plant's id
 * @returns the key
 * @example
 * ```ts
 * plantKey('plant:', 16, 'org-a', 5n); // 'plant:{6}org-a:5'
 * ```
 */
export function plantKey(prefix: string, buckets: number, tenant: string, id: bigint): string {
  const digits = id.toString();
  return `${prefix}{${bucketOf(tenant, digits, buckets)}}${tenant}:${digits}`;
}

/**
 * FNV-1a over the tenant, a separator and the id's digits: fast, stable across processes. Written
 * as two plain loops: a helper closing over `hash` would allocate its context on every create.
 */
function bucketOf(tenant: string, digits: string, buckets: number): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < tenant.length; at += 1) {
    hash = Math.imul(hash ^ tenant.charCodeAt(at), 0x01000193);
  }
  hash = Math.imul(hash ^ 0x3a, 0x01000193);
  for (let at = 0; at < digits.length; at += 1) {
    hash = Math.imul(hash ^ digits.charCodeAt(at), 0x01000193);
  }
  return (hash >>> 0) % buckets;
}

import { hmacSha256Base64url } from '../../common/sha256';

/** Server nonces for DPoP proofs (RFC 9449 §9), valid for one time slot and the one before it. */
export interface NonceSource {
  /** The nonce to hand out now (`DPoP-Nonce`). */
  current(now: number): Promise<string>;
  /** Whether a proof's `nonce` is the current one or the one of the previous slot. */
  accepts(nonce: unknown, now: number): Promise<boolean>;
}

/**
 * Creates nonces that need no shared state: a nonce is the HMAC of its time slot under a secret, so
 * every instance given the same secret hands out and accepts the same nonces. One nonce is computed
 * per slot, not per request.
 *
 * @param secret - at least 32 bytes, the same on every instance
 * @param lifetimeMs - the length of a slot; a nonce is accepted for one to two slots
 * @returns the nonce source
 * @example
 * ```ts
 * const nonces = createNonceSource(secret, 300_000);
 * await nonces.accepts(await nonces.current(Date.now()), Date.now()); // true
 * ```
 */
export function createNonceSource(secret: Uint8Array, lifetimeMs: number): NonceSource {
  let cachedSlot = Number.NaN;
  // Promises, so that concurrent requests of a new slot share one computation.
  let cached: readonly [Promise<string>, Promise<string>] = [
    Promise.resolve(''),
    Promise.resolve(''),
  ];

  const nonceOf = (slot: number): Promise<string> =>
    hmacSha256Base64url(secret, `dpop-nonce:${slot}`);

  const pair = (now: number): readonly [Promise<string>, Promise<string>] => {
    const slot = Math.floor(now / lifetimeMs);
    if (slot !== cachedSlot) {
      cached =
        slot === cachedSlot + 1 ? [nonceOf(slot), cached[0]] : [nonceOf(slot), nonceOf(slot - 1)];
      cachedSlot = slot;
    }
    return cached;
  };

  return {
    current: (now) => pair(now)[0],
    async accepts(nonce, now) {
      if (typeof nonce !== 'string') return false;
      const [current, previous] = pair(now);
      return nonce === (await current) || nonce === (await previous);
    },
  };
}

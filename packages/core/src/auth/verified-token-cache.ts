import type { Principal } from './principal';

/** Limits of the cache of verified tokens. */
export interface VerifiedTokenCacheOptions {
  /** Most tokens held; the oldest entry goes first. Default 1000. */
  readonly max?: number;
  /** Longest an entry is trusted, whatever the token's `exp`. Default 300000 (5 min). */
  readonly maxAgeMs?: number;
}

/** The times, in epoch milliseconds, between which a verified token may be answered from the cache. */
export interface TokenWindow {
  readonly validFrom: number;
  readonly validUntil: number;
}

interface Entry extends TokenWindow {
  readonly principal: Principal;
}

/**
 * Remembers tokens that passed every check, keyed by the exact token string, so that a client reusing
 * its token does not pay for the signature check on every request. An entry is used only inside its
 * token's `nbf`…`exp` window (with the clock tolerance, re-checked on every use), never past `maxAgeMs`
 * after it was verified, and never after the key set changed.
 *
 * @param options - size and age limits
 * @returns the cache
 * @example
 * ```ts
 * const cache = createVerifiedTokenCache({ max: 1000, maxAgeMs: 300_000 });
 * ```
 */
export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions = {}) {
  const max = options.max ?? 1000;
  const maxAgeMs = options.maxAgeMs ?? 300_000;
  const entries = new Map<string, Entry>();
  let keyVersion = -1;

  // A new key set may have dropped a key: every entry verified with the old set goes.
  const sync = (version: number): void => {
    if (version === keyVersion) return;
    entries.clear();
    keyVersion = version;
  };

  return {
    get(token: string, now: number, version: number): Principal | undefined {
      sync(version);
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      if (now >= entry.validFrom && now < entry.validUntil) return entry.principal;
      entries.delete(token);
      return undefined;
    },
    set(
      token: string,
      principal: Principal,
      window: TokenWindow,
      now: number,
      version: number,
    ): void {
      sync(version);
      const validUntil = Math.min(window.validUntil, now + maxAgeMs);
      if (validUntil <= now) return;
      // Map keeps insertion order: the first key is the oldest entry.
      if (entries.size >= max) entries.delete(entries.keys().next().value as string);
      entries.set(token, { principal, validFrom: window.validFrom, validUntil });
    },
    get size(): number {
      return entries.size;
    },
  };
}

/** The cache {@link createVerifiedTokenCache} returns. */
export type VerifiedTokenCache = ReturnType<typeof createVerifiedTokenCache>;

import { base64url, createLocalJWKSet } from 'jose';
import type { FlattenedJWSInput, JWTVerifyGetKey, LocalJWKSet } from 'jose';
import { fetchKeySet } from './fetch-key-set';
import { InvalidTokenError } from '../../errors/bearer-errors';
import { ServiceUnavailableError } from '../../errors/server-errors';

/**
 * Tuning of a {@link RemoteKeySet}, every value present and checked by `jwtBearer`'s options.
 * Durations are in milliseconds, `retryAfter` in seconds.
 */
export interface RemoteKeySetConfig {
  /** Abort a fetch of the key set after this long. */
  readonly timeoutMs: number;
  /** At most one fetch per this interval for an unknown `kid`, and after a failed fetch. */
  readonly cooldownMs: number;
  /** Keys older than this are refreshed before use. */
  readonly maxAgeMs: number;
  /** How long after their fetch the last good keys serve while refreshes fail; at least maxAgeMs. */
  readonly staleMs: number;
  /** The longest `Retry-After` of a 503; it otherwise tells the time until the next fetch may start. */
  readonly retryAfter: number;
  /** The fetch to use (tests, proxies). */
  readonly fetch: typeof fetch;
  /** The clock, in epoch milliseconds (tests). */
  readonly now: () => number;
  /** The clock skew allowed between the provider and this service, for a token's `iat`. */
  readonly clockToleranceMs: number;
}

/** A remote JSON Web Key Set that keeps its last good copy through outages of the identity provider. */
export interface RemoteKeySet {
  /** Resolves the key for a token header; pass it to jose's `jwtVerify`. */
  readonly getKey: JWTVerifyGetKey;
  /** Fetches the key set now (one fetch in flight at a time); rejects with a 503 error if that fails. */
  refresh(): Promise<void>;
  /** Resolves once usable keys are held, fetching them if need be; rejects with a 503 error otherwise. */
  ready(): Promise<void>;
  /** Increments whenever a fetch brings a key set different from the one held. */
  readonly version: number;
}

const UNAVAILABLE = 'The key set of the identity provider cannot be fetched; try again later.';
// After a failed fetch the next one may start after this, doubling with each failure up to the cool-down.
const FIRST_BACK_OFF_MS = 1_000;
// A token issued after the last fetch may bring a key the provider has just started to sign with.
const NEW_KEY_INTERVAL_MS = 1_000;

function isNoMatchingKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_JWKS_NO_MATCHING_KEY';
}

/** The token's `iat` in milliseconds, read only on the rare path of an unknown key; NaN without one. */
function issuedAt(token: FlattenedJWSInput | undefined): number {
  try {
    const encoded = token?.payload ?? '';
    const text = new TextDecoder().decode(
      typeof encoded === 'string' ? base64url.decode(encoded) : encoded,
    );
    const payload: unknown = JSON.parse(text);
    const iat = (payload as { iat?: unknown } | null)?.iat;
    return typeof iat === 'number' && Number.isFinite(iat) ? iat * 1000 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * Creates a remote JWKS with a last-good copy. jose's `createRemoteJWKSet` fails every request
 * once a refresh fails; here the keys last fetched keep serving for `staleMs`, so an identity
 * provider outage only becomes visible (as a 503, never a 401) when no recent enough keys are held.
 *
 * When fetches to the provider happen (one at a time, never more often than these allow):
 * - keys older than `maxAgeMs` are refreshed on the next request;
 * - after a failed fetch, the next may start after 1 s, then 2 s, 4 s, … up to `cooldownMs`, so a
 *   service recovers within about a second or two of its provider's return;
 * - a token with an unknown `kid` that was issued after the last fetch (within the clock tolerance)
 *   may bring a key the provider has just started signing with: it refetches, at most once a second,
 *   waiting for that slot rather than being refused;
 * - any other unknown `kid` refetches once per `cooldownMs`; within it, it is answered 401
 *   `key_not_found` at once (the keys held are newer than the token).
 *
 * Keys are selected by jose's `createLocalJWKSet` from the token's `alg` and `kid` only: `jku`,
 * `x5u`, `jwk` and `x5c` headers are never followed. No timer is started; work happens on demand.
 *
 * @param url - where the JWKS is served (`https:`, or `http:` on loopback: the caller checks)
 * @param config - time-outs and cache durations, see {@link RemoteKeySetConfig}
 * @returns the key set; `getKey` goes to `jwtVerify`
 * @example
 * ```ts
 * const keys = createRemoteKeySet(new URL('https://id.example.com/.well-known/jwks.json'), config);
 * const { payload } = await jwtVerify(token, keys.getKey, { algorithms: ['RS256'] });
 * ```
 */
export function createRemoteKeySet(url: URL, config: RemoteKeySetConfig): RemoteKeySet {
  const { cooldownMs, maxAgeMs, staleMs, retryAfter, now, clockToleranceMs } = config;

  let local: LocalJWKSet | undefined;
  let held = '';
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let failures = 0;
  let attempts = 0;
  // What the last fetch failed with; undefined once one succeeds.
  let failure: { readonly cause: unknown } | undefined;
  let inFlight: Promise<void> | undefined;
  let version = 0;

  const load = async (): Promise<void> => {
    try {
      const body = await fetchKeySet(url, config);
      const serialized = JSON.stringify(body.keys);
      if (serialized !== held) {
        // createLocalJWKSet checks every member is an object; a broken set counts as an outage.
        local = createLocalJWKSet(body);
        held = serialized;
        version += 1;
      }
      fetchedAt = now();
      failures = 0;
      failure = undefined;
    } catch (cause) {
      failures += 1;
      failure = { cause };
      throw unavailable(cause);
    }
  };

  const refresh = (): Promise<void> => {
    if (inFlight === undefined) {
      attempts += 1;
      attemptedAt = now();
      inFlight = load().finally(() => {
        inFlight = undefined;
      });
    }
    return inFlight;
  };

  const usable = (): boolean => local !== undefined && now() - fetchedAt < staleMs;

  /**
   * Milliseconds until a fetch may start again after a failure, 0 if now. Without usable keys every
   * request is answered 503, so retries come soon (1 s, 2 s, 4 s, … up to the cool-down); with the last
   * good keys still serving there is no hurry, and the provider is spared for the whole cool-down.
   */
  const retryWait = (): number => {
    if (failure === undefined) return 0;
    const wait = usable()
      ? cooldownMs
      : Math.min(cooldownMs, FIRST_BACK_OFF_MS * 2 ** Math.min(failures - 1, 30));
    return Math.max(0, attemptedAt + wait - now());
  };

  /**
   * The 503 for now. Its Retry-After is the time until the next fetch may start, in whole seconds
   * rounded up, so a client retrying then is not answered from the same outage again; at least 1, at
   * most `retryAfter`.
   */
  const unavailable = (cause?: unknown): ServiceUnavailableError => {
    const seconds = Math.min(retryAfter, Math.max(1, Math.ceil(retryWait() / 1000)));
    return new ServiceUnavailableError('jwks_unavailable', UNAVAILABLE, {
      cause,
      retryAfter: seconds,
    });
  };

  /** The keys to use: fresh ones, else a refresh, else the last good copy while it is recent enough. */
  const current = async (force: boolean): Promise<LocalJWKSet> => {
    if (local !== undefined && now() - fetchedAt < maxAgeMs) return local;
    if (force || inFlight !== undefined || retryWait() === 0) {
      try {
        await refresh();
      } catch {
        // Handled below: the last good copy may still serve.
      }
    }
    if (local !== undefined && usable()) return local;
    throw unavailable(failure?.cause);
  };

  /**
   * Looks again for the key of a token whose `kid` is not held. A token issued since the keys were
   * fetched may bring a key the provider has just started signing with: it waits for the next slot
   * (at most a second) and refetches, with every other such token joining that one fetch. Any other
   * token refetches only once the cool-down has passed: the keys held are newer than it.
   */
  const lookAgain = async (
    token: FlattenedJWSInput | undefined,
  ): Promise<LocalJWKSet | undefined> => {
    if (inFlight !== undefined) {
      await inFlight;
      return local;
    }
    if (failure !== undefined && retryWait() > 0) throw unavailable(failure.cause);
    const sinceAttempt = now() - attemptedAt;
    if (sinceAttempt < cooldownMs) {
      if (!(issuedAt(token) >= fetchedAt - clockToleranceMs)) return undefined;
      const attemptsBefore = attempts;
      const wait = NEW_KEY_INTERVAL_MS - sinceAttempt;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      // Another token may have refetched while this one waited: its answer is this one's too.
      if (attempts !== attemptsBefore) {
        await (inFlight as Promise<void> | undefined)?.catch(() => undefined);
        if (failure !== undefined) throw unavailable(failure.cause);
        return local;
      }
    }
    // A failed refetch rejects with the 503: the key may be one the provider published meanwhile.
    await refresh();
    return local;
  };

  const getKey: JWTVerifyGetKey = async (header, token) => {
    const keys = await current(false);
    let lastError: unknown;
    try {
      return await keys(header, token);
    } catch (error) {
      if (!isNoMatchingKey(error)) throw error;
      lastError = error;
    }
    const fresh = await lookAgain(token);
    if (fresh !== undefined && fresh !== keys) {
      try {
        return await fresh(header, token);
      } catch (error) {
        if (!isNoMatchingKey(error)) throw error;
        lastError = error;
      }
    }
    throw new InvalidTokenError('key_not_found', 'No key of the key set matches the token', {
      cause: lastError,
    });
  };

  return {
    getKey,
    refresh,
    ready: async () => {
      await current(true);
    },
    get version() {
      return version;
    },
  };
}

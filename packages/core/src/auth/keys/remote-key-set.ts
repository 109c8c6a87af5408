import { createLocalJWKSet } from 'jose';
import type { JSONWebKeySet, JWTVerifyGetKey, LocalJWKSet } from 'jose';
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
  /** `Retry-After` of the 503 answered when no usable keys are held. */
  readonly retryAfter: number;
  /** The fetch to use (tests, proxies). */
  readonly fetch: typeof fetch;
  /** The clock, in epoch milliseconds (tests). */
  readonly now: () => number;
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

// A key set is a few kilobytes; anything far larger is not one.
const MAX_BODY_CHARS = 1024 * 1024;
const UNAVAILABLE = 'The key set of the identity provider cannot be fetched; try again later.';

function isKeySet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { keys?: unknown }).keys)
  );
}

function isNoMatchingKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_JWKS_NO_MATCHING_KEY';
}

/**
 * Creates a remote JWKS with a last-good copy. jose's `createRemoteJWKSet` fails every request
 * once a refresh fails; here the keys last fetched keep serving for `staleMs`, so an identity
 * provider outage only becomes visible (as a 503, never a 401) when no recent enough keys are held.
 *
 * Keys are selected by jose's `createLocalJWKSet` from the token's `alg` and `kid` only: `jku`,
 * `x5u`, `jwk` and `x5c` headers are never followed. No timer is started; work happens on demand.
 *
 * @param url - where the JWKS is served (`https:`, or `http:` on loopback: the caller checks)
 * @param config - time-outs and cache durations, see {@link RemoteKeySetConfig}
 * @returns the key set; `getKey` goes to `jwtVerify`
 * @example
 * ```ts
 * const keys = createRemoteKeySet(new URL('https://id.example.com/.well-known/jwks.json'));
 * const { payload } = await jwtVerify(token, keys.getKey, { algorithms: ['RS256'] });
 * ```
 */
export function createRemoteKeySet(url: URL, config: RemoteKeySetConfig): RemoteKeySet {
  const { timeoutMs, cooldownMs, maxAgeMs, staleMs, retryAfter, now } = config;
  const fetchImpl = config.fetch;
  const href = url.href;

  let local: LocalJWKSet | undefined;
  let held = '';
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  let failure: ServiceUnavailableError | undefined;
  let inFlight: Promise<void> | undefined;
  let version = 0;

  const load = async (): Promise<void> => {
    try {
      const response = await fetchImpl(href, {
        signal: AbortSignal.timeout(timeoutMs),
        // A redirect answers 3xx and so fails: the configured location is the only trusted one.
        redirect: 'manual',
        headers: { accept: 'application/jwk-set+json, application/json' },
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(`The key set answered HTTP ${response.status}`);
      }
      const text = await response.text();
      if (text.length > MAX_BODY_CHARS) throw new Error('The key set answer is too large');
      const body: unknown = JSON.parse(text);
      if (!isKeySet(body))
        throw new Error('The key set answer is not a JSON object with a keys array');
      const serialized = JSON.stringify(body.keys);
      if (serialized !== held) {
        // createLocalJWKSet checks every member is an object; a broken set counts as an outage.
        local = createLocalJWKSet(body);
        held = serialized;
        version += 1;
      }
      fetchedAt = now();
      failure = undefined;
    } catch (cause) {
      failure = new ServiceUnavailableError('jwks_unavailable', UNAVAILABLE, { cause, retryAfter });
      throw failure;
    }
  };

  const refresh = (): Promise<void> => {
    if (inFlight === undefined) {
      attemptedAt = now();
      inFlight = load().finally(() => {
        inFlight = undefined;
      });
    }
    return inFlight;
  };

  /** The keys to use: fresh ones, else a refresh, else the last good copy while it is recent enough. */
  const current = async (force: boolean): Promise<LocalJWKSet> => {
    if (local !== undefined && now() - fetchedAt < maxAgeMs) return local;
    // After a failed fetch, wait out the cool-down instead of making every request wait on the provider.
    const coolingDown = failure !== undefined && now() - attemptedAt < cooldownMs;
    if (force || inFlight !== undefined || !coolingDown) {
      try {
        await refresh();
      } catch {
        // Handled below: the last good copy may still serve.
      }
    }
    if (local !== undefined && now() - fetchedAt < staleMs) return local;
    throw failure ?? new ServiceUnavailableError('jwks_unavailable', UNAVAILABLE, { retryAfter });
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
    // An unknown kid may be a key the provider has just rotated in: look once, within the cool-down.
    if (inFlight !== undefined || now() - attemptedAt >= cooldownMs) {
      try {
        await refresh();
      } catch {
        // The provider is down: the token names a key we do not hold, whatever the reason.
      }
      if (local !== undefined && local !== keys) {
        try {
          return await local(header, token);
        } catch (error) {
          if (!isNoMatchingKey(error)) throw error;
          lastError = error;
        }
      }
    }
    // The key may be one the provider published while it could not be reached: an outage is the
    // provider's, and the client should retry (503), not drop its request (401).
    if (failure !== undefined) throw failure;
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

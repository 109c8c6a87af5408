import type { JSONWebKeySet } from 'jose';
import { readLimitedText } from '../read-limited-text';

// A key set is a few kilobytes; anything far larger is not one, and is not read past this.
const MAX_BODY_BYTES = 1024 * 1024;
// Real key sets hold a handful of keys. A token without `kid` may be tried against several, so the
// size of the set bounds what a forged token can cost.
const MAX_KEYS = 100;

/** How to fetch: the time-out, and the fetch to use. */
export interface FetchKeySetOptions {
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

/**
 * Fetches and checks a JWKS: HTTP 200 only (a redirect is an answer too, and fails: the configured
 * location is the only trusted one), at most 1 MiB read (reading stops there), a JSON object with a
 * `keys` array of at most 100 objects, all within `timeoutMs`.
 *
 * @param url - the configured JWKS location
 * @param options - time-out and fetch
 * @returns the key set
 * @throws Error describing what was wrong (the caller turns it into a 503)
 * @example
 * ```ts
 * const keys = await fetchKeySet(new URL('https://id.example.com/jwks'), { timeoutMs: 5000, fetch });
 * ```
 */
export async function fetchKeySet(url: URL, options: FetchKeySetOptions): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  // Called as a plain function: workerd refuses its global fetch called as another object's method
  // ("Illegal invocation").
  const fetchKeys = options.fetch;
  const response = await fetchKeys(url.href, {
    signal,
    redirect: 'manual',
    headers: { accept: 'application/jwk-set+json, application/json' },
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`The key set answered HTTP ${response.status}`);
  }
  const body: unknown = JSON.parse(await readLimitedText(response, MAX_BODY_BYTES, 'The key set'));
  if (!isKeySet(body)) throw new Error('The key set answer is not a JSON object with a keys array');
  if (body.keys.length > MAX_KEYS) throw new Error(`The key set holds more than ${MAX_KEYS} keys`);
  return body;
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { keys?: unknown }).keys)
  );
}

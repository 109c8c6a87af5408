import type { JSONWebKeySet } from 'jose';

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
  const body: unknown = JSON.parse(await readLimited(response));
  if (!isKeySet(body)) throw new Error('The key set answer is not a JSON object with a keys array');
  if (body.keys.length > MAX_KEYS) throw new Error(`The key set holds more than ${MAX_KEYS} keys`);
  return body;
}

/** Reads the body as text, stopping (and cancelling the stream) as soon as it passes the limit. */
async function readLimited(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES || response.body === null) {
    await response.body?.cancel();
    if (declared > MAX_BODY_BYTES) throw new Error('The key set answer is too large');
    return '';
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    // Checked, not asserted: the stream's element type differs between Node's and Bun's typings.
    const chunk: unknown = read.value;
    if (!(chunk instanceof Uint8Array)) throw new Error('The key set answer is not bytes');
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new Error('The key set answer is too large');
    }
    text += decoder.decode(chunk, { stream: true });
  }
  return text + decoder.decode();
}

function isKeySet(value: unknown): value is JSONWebKeySet {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { keys?: unknown }).keys)
  );
}

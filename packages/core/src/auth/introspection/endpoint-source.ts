import { isPlantServiceError } from '../../errors/plant-service-error';
import { discoverEndpoint } from './discover-endpoint';
import { introspectionUnavailable } from './introspection-unavailable';

/** Where the introspection endpoint comes from: the configured URL, or the issuer's metadata. */
export interface EndpointSource {
  /** The endpoint; rejects with the discovery's error, or a 503 while backing off after one. */
  get(): Promise<URL>;
}

/** What {@link createEndpointSource} needs: the endpoint if configured, else how to discover it. */
export interface EndpointSettings {
  readonly endpoint: URL | undefined;
  readonly issuer: string;
  readonly timeoutMs: number;
  readonly fetch: typeof globalThis.fetch;
  readonly now: () => number;
}

// As the remote key set backs off: 1 s, 2 s, 4 s, … up to 30 s between failed discoveries.
const FIRST_BACK_OFF_MS = 1000;
const MAX_BACK_OFF_MS = 30_000;

/**
 * Creates the endpoint source. A discovered endpoint is kept for good; a failed discovery is tried
 * again only after a back-off that doubles with each failure, so an issuer that is down is not asked
 * once per request (each with a fresh connection) while every request answers 503 anyway.
 *
 * @param settings - the configured endpoint (no discovery then), the issuer, time-out, fetch and clock
 * @returns the source
 * @example
 * ```ts
 * const source = createEndpointSource({ endpoint: undefined, issuer, timeoutMs: 5000, fetch, now: Date.now });
 * const url = await source.get();
 * ```
 */
export function createEndpointSource(settings: EndpointSettings): EndpointSource {
  const { issuer, timeoutMs, fetch, now } = settings;
  if (settings.endpoint !== undefined) {
    const known = Promise.resolve(settings.endpoint);
    return { get: () => known };
  }
  let endpoint: Promise<URL> | undefined;
  let failures = 0;
  let retryAt = 0;
  let lastError: unknown;

  return {
    get(): Promise<URL> {
      if (endpoint !== undefined) return endpoint;
      const wait = retryAt - now();
      if (wait > 0) {
        // A misconfiguration (500) stays what it is; an outage is a 503 with the wait until the next try.
        if (isPlantServiceError(lastError) && lastError.status === 500) {
          return Promise.reject(lastError);
        }
        const seconds = Math.max(1, Math.ceil(wait / 1000));
        return Promise.reject(
          introspectionUnavailable('Discovery failed recently', lastError, seconds),
        );
      }
      endpoint = discoverEndpoint(issuer, { timeoutMs, fetch }).then(
        (url) => {
          failures = 0;
          return url;
        },
        (error: unknown) => {
          failures += 1;
          retryAt = now() + Math.min(MAX_BACK_OFF_MS, FIRST_BACK_OFF_MS * 2 ** (failures - 1));
          lastError = error;
          endpoint = undefined;
          throw error;
        },
      );
      return endpoint;
    },
  };
}

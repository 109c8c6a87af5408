import { isPlantServiceError } from '../../errors/plant-service-error';
import { isSecureUrl } from '../issuer-url';
import { readLimitedText } from '../read-limited-text';
import { introspectionMisconfigured, introspectionUnavailable } from './introspection-unavailable';

// Metadata documents are a few kilobytes.
const MAX_METADATA_BYTES = 256 * 1024;

/** Where discovery looks, in order: RFC 8414 §3.1, then OpenID Connect Discovery 1.0 §4. */
export function metadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/u, '');
  return [
    // RFC 8414 inserts the well-known segment between the host and the issuer's path.
    new URL(`/.well-known/oauth-authorization-server${path}`, url.origin),
    // OpenID Connect appends it to the issuer.
    new URL(`${url.origin}${path}/.well-known/openid-configuration`),
  ];
}

interface Fetching {
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
}

// One metadata document: undefined when there is none at this location (404), so the next is tried.
async function fetchMetadata(url: URL, fetching: Fetching): Promise<unknown> {
  // Called as a plain function: workerd refuses its global fetch called as another object's method.
  const fetchMetadataDocument = fetching.fetch;
  const response = await fetchMetadataDocument(url.href, {
    signal: AbortSignal.timeout(fetching.timeoutMs),
    redirect: 'manual',
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`The metadata at ${url.href} answered HTTP ${response.status}`);
  }
  return JSON.parse(await readLimitedText(response, MAX_METADATA_BYTES, 'The metadata'));
}

/**
 * Finds the introspection endpoint in the issuer's metadata (RFC 8414 `introspection_endpoint`):
 * the OAuth location first, then the OpenID one. The document's `issuer` must be the configured one
 * (RFC 8414 §3.3), and the endpoint an `https:` URL (`http:` on loopback).
 *
 * @param issuer - the configured issuer
 * @param fetching - time-out and fetch
 * @returns the endpoint
 * @throws ServiceUnavailableError 503 `introspection_unavailable` when no document can be read;
 *   InternalServerError 500 `auth_failed` when the documents name another issuer or no usable endpoint
 * @example
 * ```ts
 * const endpoint = await discoverEndpoint('https://id.example.com', { timeoutMs: 5000, fetch });
 * ```
 */
export async function discoverEndpoint(issuer: string, fetching: Fetching): Promise<URL> {
  let metadata: unknown;
  try {
    for (const url of metadataUrls(issuer)) {
      metadata = await fetchMetadata(url, fetching);
      if (metadata !== undefined) break;
    }
  } catch (error) {
    if (isPlantServiceError(error)) throw error;
    throw introspectionUnavailable('The issuer metadata cannot be read', error);
  }
  if (metadata === undefined) {
    throw introspectionMisconfigured(
      'The issuer publishes no metadata (HTTP 404 at both locations)',
    );
  }
  const { issuer: named, introspection_endpoint: endpoint } = (metadata ?? {}) as {
    issuer?: unknown;
    introspection_endpoint?: unknown;
  };
  if (named !== issuer) {
    throw introspectionMisconfigured('The issuer metadata names another issuer');
  }
  let url: URL | undefined;
  try {
    url = typeof endpoint === 'string' ? new URL(endpoint) : undefined;
  } catch {
    // Reported below.
  }
  if (url === undefined || !isSecureUrl(url)) {
    throw introspectionMisconfigured(
      'The issuer metadata names no https: introspection_endpoint without user information',
    );
  }
  return url;
}

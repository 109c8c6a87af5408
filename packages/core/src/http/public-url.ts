import { describeValue, type Factory, optionError } from '../options/check-options';

const LOOPBACK = /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/u;
// What can stand in a quoted header parameter as it is: the URL goes into `resource_metadata="…"`.
const QUOTABLE = /^[\x21\x23-\x5b\x5d-\x7e]+$/u;

/**
 * Reads an absolute URL option the service publishes or compares requests with (`publicUrl`,
 * `resourceMetadata.resource`): `https:`, or `http:` on a loopback host; no user information, query
 * or fragment; trailing slashes dropped unless it is the origin alone.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came
 * @returns the URL as the WHATWG parser writes it (scheme and host in lower case, default port dropped)
 * @throws TypeError for anything else
 * @example
 * ```ts
 * publicUrlOption('Plantstore', 'publicUrl', 'https://API.example.com/'); // 'https://api.example.com'
 * ```
 */
export function publicUrlOption(factory: Factory, option: string, value: unknown): string {
  const url = parsedUrl(value);
  if (
    url === undefined ||
    !isSecureScheme(url) ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    !QUOTABLE.test(url.href)
  ) {
    return optionError(
      factory,
      option,
      'must be an absolute https: URL (http: only on a loopback host) without query or fragment',
      url === undefined ? describeValue(value) : `a ${url.protocol} URL for ${url.hostname}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/u, '')}`;
}

/**
 * An absolute URL option parsed, or `undefined` when it is not a string or URL that parses.
 *
 * @param value - what came
 * @returns the URL
 * @example
 * ```ts
 * parsedUrl('https://hooks.example.com/plants')?.hostname; // 'hooks.example.com'
 * ```
 */
export function parsedUrl(value: unknown): URL | undefined {
  try {
    return typeof value === 'string' || value instanceof URL ? new URL(value) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether a URL the package sends to or publishes is safe on the wire: `https:`, or `http:` on a
 * loopback host.
 *
 * @param url - the parsed URL
 * @returns whether its scheme fits
 * @example
 * ```ts
 * isSecureScheme(new URL('http://127.0.0.1:8080/')); // true
 * ```
 */
export function isSecureScheme(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

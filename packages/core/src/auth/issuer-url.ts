import { describeValue, optionError, type Factory } from '../options/check-options';

const LOOPBACK = /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/u;

/**
 * Whether a URL's host is this machine's: where `http:` is tolerated (tests, local development), as no
 * one else can listen there.
 *
 * @param hostname - the host as the WHATWG parser writes it (IPv6 in brackets, lower case)
 * @returns true for `localhost`, `[::1]` and 127.0.0.0/8
 * @example
 * ```ts
 * isLoopbackHost(new URL('http://127.0.0.1:8080/jwks').hostname); // true
 * ```
 */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK.test(hostname);
}

/**
 * Whether an accepted `iss` can be published as an OAuth authorization server (RFC 9728
 * `authorization_servers`): an issuer identifier as RFC 8414 §2 defines it, an `https:` URL without
 * query or fragment (and without user information), or `http:` on a loopback host, as `jwksUri`
 * allows for tests. `billing-internal` or `urn:…` are names, not servers a client could ask for a token.
 *
 * @param issuer - the `iss` as configured, compared and published exactly as it is
 * @returns true when it is such a URL
 * @example
 * ```ts
 * isIssuerUrl('https://login.example.com/tenant/v2.0'); // true
 * isIssuerUrl('billing-internal'); // false
 * ```
 */
export function isIssuerUrl(issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  // `?` and `#` are looked for in the string: an empty query or fragment leaves none in the URL.
  return isSecureUrl(url) && !/[?#]/u.test(issuer);
}

/**
 * Whether a URL may be fetched for keys or token answers: `https:`, or `http:` on a loopback host
 * (tests, local development), as no one else can listen there; never with user information
 * (`https://user:password@…`), which `fetch` refuses and a log would print.
 *
 * @param url - a parsed URL
 * @returns true when it is such a URL
 * @example
 * ```ts
 * isSecureUrl(new URL('http://127.0.0.1:8080/introspect')); // true
 * ```
 */
export function isSecureUrl(url: URL): boolean {
  if (hasUserInfo(url)) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}

function hasUserInfo(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}

/**
 * Reads a URL option that is fetched (`jwksUri`, `endpoint`): see {@link isSecureUrl}.
 *
 * @param factory - the factory that was called
 * @param option - the option's name
 * @param value - what came: a string or a URL
 * @returns the parsed URL
 * @throws TypeError for anything else
 * @example
 * ```ts
 * secureUrlOption('jwtBearer', 'jwksUri', 'https://id.example.com/jwks');
 * ```
 */
export function secureUrlOption(factory: Factory, option: string, value: unknown): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' || value instanceof URL ? new URL(value) : undefined;
  } catch {
    // Reported below.
  }
  if (url !== undefined && hasUserInfo(url)) {
    // Named, never echoed: the password would reach the host's logs with the message.
    return optionError(
      factory,
      option,
      'must not hold user information (fetch refuses https://user:password@ URLs; send credentials another way)',
      `a URL with user information for ${url.hostname}`,
    );
  }
  if (url !== undefined && isSecureUrl(url)) return url;
  const received =
    url === undefined ? describeValue(value) : `a ${url.protocol} URL for ${url.hostname}`;
  return optionError(
    factory,
    option,
    'must be an https: URL (http: only on a loopback host)',
    received,
  );
}

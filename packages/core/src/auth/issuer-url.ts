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
  const secure =
    url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  // `?` and `#` are looked for in the string: an empty query or fragment leaves none in the URL.
  return secure && url.username === '' && url.password === '' && !/[?#]/u.test(issuer);
}

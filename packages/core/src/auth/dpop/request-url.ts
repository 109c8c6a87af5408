// RFC 3986 §2.3 unreserved characters, which percent-encoding normalisation decodes.
const ENCODED = /%[0-9a-f]{2}/gi;

function isUnreserved(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

function normaliseEncoding(encoded: string): string {
  const code = Number.parseInt(encoded.slice(1), 16);
  return isUnreserved(code) ? String.fromCharCode(code) : encoded.toUpperCase();
}

/**
 * Normalises an `http:` or `https:` URI for comparison (RFC 3986 §6.2.2 and §6.2.3), without its
 * query and fragment, as RFC 9449 §4.3 compares a proof's `htu` with the request: scheme and host in
 * lower case, the default port dropped, dot segments removed, an empty path as `/` (the WHATWG URL
 * parser does these), percent-encoded unreserved characters decoded and the other encodings in upper
 * case.
 *
 * @param value - an absolute URI
 * @returns the normalised URI, or `undefined` when it is not an absolute http(s) URI or carries
 *   user information
 * @example
 * ```ts
 * normaliseRequestUrl('HTTPS://API.example.com:443/a/./b/%7euser?x=1'); // 'https://api.example.com/a/b/~user'
 * ```
 */
export function normaliseRequestUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return `${url.protocol}//${url.host}${url.pathname.replace(ENCODED, normaliseEncoding)}`;
}

/**
 * The path of a request target as the client sent it: the origin-form path without its query, or
 * the path of an absolute-form target (`POST https://other.example/plants`), whose host is never
 * trusted.
 *
 * @param target - the request target (`req.originalUrl`, `req.url`)
 * @returns the path
 * @example
 * ```ts
 * targetPath('/api/plants?x=1'); // '/api/plants'
 * ```
 */
export function targetPath(target: string): string {
  if (!target.startsWith('/')) {
    try {
      return new URL(target).pathname;
    } catch {
      return '/';
    }
  }
  const query = target.search(/[?#]/);
  return query === -1 ? target : target.slice(0, query);
}

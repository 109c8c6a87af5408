// An absolute URL whose path holds only characters that URL parsing keeps as they are: no `.` (dot
// segments), `%` (encodings), `\` (a separator in http URLs), spaces, controls or non-ASCII. The
// path is then exactly what `new URL(url).pathname` gives.
const PLAIN = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\\s]*(\/[\w\-~!$&'()*+,;=:@/]*)(?:[?#]|$)/u;

/**
 * The path of a request's absolute URL, as `new URL(url).pathname` gives it, without parsing the
 * URL when its path is plain (the common case); any other URL is parsed.
 *
 * @param url - `request.url`
 * @returns the path, query and fragment left out
 * @example
 * ```ts
 * urlPath('http://127.0.0.1:3000/api/plants?x=1'); // '/api/plants'
 * ```
 */
export function urlPath(url: string): string {
  return PLAIN.exec(url)?.[1] ?? new URL(url).pathname;
}

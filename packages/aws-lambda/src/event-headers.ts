import type { HttpApiEvent, RestApiEvent } from './lambda-events';

const encoder = new TextEncoder();

/**
 * A header value as node:http would hand it over: each byte of its UTF-8 form as one character.
 * API Gateway gives header values as decoded text, which `Headers` refuses past U+00FF; this keeps
 * every byte the client sent, and the route judges them as it does on Node (an `Authorization` with
 * such bytes is a malformed credential, 401), instead of the entry failing or rewriting the value.
 */
function byteString(value: string): string {
  // eslint-disable-next-line no-control-regex -- the Latin-1 range is the point
  if (/^[\u0000-\u00ff]*$/u.test(value)) return value;
  return String.fromCharCode(...encoder.encode(value));
}

/**
 * The request headers of a 2.0 event: each field as API Gateway joined it (repeated fields with
 * commas, which is how `Headers` joins them too), and its `cookies` back into one `Cookie` field.
 *
 * @param event - the event
 * @returns the headers
 */
export function httpApiHeaders(event: HttpApiEvent): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, byteString(value));
  }
  if (event.cookies !== undefined && event.cookies.length > 0) {
    headers.set('cookie', byteString(event.cookies.join('; ')));
  }
  return headers;
}

/**
 * The request headers of a 1.0 event: from `multiValueHeaders` when it is there (a repeated field,
 * such as two `Authorization` fields, stays repeated), else from `headers`, which keeps only the last
 * value of each.
 *
 * @param event - the event
 * @returns the headers
 */
export function restApiHeaders(event: RestApiEvent): Headers {
  const headers = new Headers();
  if (event.multiValueHeaders) {
    for (const [name, values] of Object.entries(event.multiValueHeaders)) {
      for (const value of values ?? []) headers.append(name, byteString(value));
    }
    return headers;
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined) headers.set(name, byteString(value));
  }
  return headers;
}

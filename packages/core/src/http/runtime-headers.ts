/**
 * The request's headers as the runtime's own `Headers`. A look-alike is copied into one:
 * `@hono/node-server`'s lazy headers answer `get` from Node's `req.headers`, which holds only the
 * first 1000 fields (`maxHeadersCount`), so a `Content-Encoding` sent after 1000 filler fields
 * would go unseen; copied, every field the server received is there. Bun's, Deno's and workerd's
 * are their own and are used as they are.
 *
 * @param headers - `request.headers`
 * @returns headers whose `get` sees every field
 * @example
 * ```ts
 * const headers = runtimeHeaders(request.headers);
 * ```
 */
export function runtimeHeaders(headers: Headers): Headers {
  return Object.getPrototypeOf(headers) === Headers.prototype ? headers : new Headers(headers);
}

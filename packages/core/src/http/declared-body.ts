import type { HeaderReader } from './request';

/**
 * Whether a request's head declares a body: a `Content-Length` other than 0, or a transfer coding.
 * An answer sent before such a body was read leaves it on the connection, so the connection must
 * close, or Node goes on reading the rest (64 MiB, a byte at a time) to reuse it, outside every
 * limit and time-out the route applies.
 *
 * @param headers - the request's headers
 * @returns whether a body follows the head
 * @example
 * ```ts
 * declaresBody(headerReader({ 'content-length': '67108864' })); // true
 * ```
 */
export function declaresBody(headers: HeaderReader): boolean {
  const length = headers('content-length');
  return headers('transfer-encoding') !== undefined || (length !== undefined && length[0] !== '0');
}

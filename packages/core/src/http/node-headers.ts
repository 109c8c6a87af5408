import type { IncomingMessage } from 'node:http';
import type { HeaderReader } from './request';

// Node keeps only the first of these when a request repeats them (and discards the rest silently);
// the route must see every copy to refuse a repeated credential or media type.
const KEPT_ONCE_BY_NODE = new Set(['authorization', 'content-type']);

/**
 * Reads a Node request's headers without building `headersDistinct` for every request: the parsed
 * `req.headers` for most names, and the raw header list for the two whose repeats Node discards.
 *
 * @param req - a Node request (Express's and Koa's are ones)
 * @returns a header reader for the core
 * @example
 * ```ts
 * service.handle({ method: req.method, path, headers: nodeHeaderReader(req), body: req });
 * ```
 */
export function nodeHeaderReader(req: IncomingMessage): HeaderReader {
  return (name) => {
    if (KEPT_ONCE_BY_NODE.has(name)) return rawValues(req.rawHeaders, name);
    const value = req.headers[name];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? [value] : value;
  };
}

function rawValues(raw: readonly string[], name: string): readonly string[] | undefined {
  let values: string[] | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const key = raw[index] as string;
    if (key.length === name.length && key.toLowerCase() === name) {
      (values ??= []).push(raw[index + 1] as string);
    }
  }
  return values;
}

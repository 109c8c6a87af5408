import type { IncomingMessage } from 'node:http';
import type { HeaderReader } from './request';

// Read from the raw header list, for two reasons. Node keeps only the first `authorization` and
// `content-type` when a request repeats them (and joins repeated `dpop` fields), and the route must see every copy to refuse a repeat.
// And `req.headers` holds only the first 1000 headers: a `content-encoding: gzip` sent after 996
// fillers would be invisible there. Every header the route decides on is read the same way.
const READ_RAW = new Set([
  'authorization',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'content-length',
  'dpop',
]);

/**
 * Reads a Node request's headers without building `headersDistinct` for every request: the raw header
 * list for every header the route decides on, the parsed `req.headers` for any other name.
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
    if (READ_RAW.has(name)) return rawValues(req.rawHeaders, name);
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

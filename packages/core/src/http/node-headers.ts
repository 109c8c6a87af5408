import type { IncomingMessage } from 'node:http';
import type { HeaderReader } from './request';

// Read from the raw header list, for two reasons. Node keeps only the first `authorization` and
// `content-type` when a request repeats them (and joins repeated `dpop` fields), and the route must see every copy to refuse a repeat.
// And `req.headers` holds only the first 1000 headers: a `content-encoding: gzip` sent after 996
// fillers would be invisible there. Every header the route decides on is read the same way.
const READ_RAW = [
  'authorization',
  'content-type',
  'content-encoding',
  'transfer-encoding',
  'content-length',
  'dpop',
] as const;

type RawName = (typeof READ_RAW)[number];

// Their lengths differ (13, 12, 16, 17, 14, 4), so a raw name's length says which one it may be.
const RAW_BY_LENGTH: readonly (RawName | undefined)[] = (() => {
  const byLength: (RawName | undefined)[] = [];
  for (const name of READ_RAW) byLength[name.length] = name;
  return byLength;
})();

/** Every value of each raw-read header, in the order sent. */
type RawValues = Partial<Record<RawName, string[]>>;

/**
 * Reads a Node request's headers without building `headersDistinct` for every request: the raw header
 * list for every header the route decides on (one pass over it, on the first such read), the parsed
 * `req.headers` for any other name.
 *
 * @param req - a Node request (Express's and Koa's are ones)
 * @returns a header reader for the core
 * @example
 * ```ts
 * service.handle({ method: req.method, path, headers: nodeHeaderReader(req), body: req });
 * ```
 */
export function nodeHeaderReader(req: IncomingMessage): HeaderReader {
  let raw: RawValues | undefined;
  return (name) => {
    const rawName = RAW_BY_LENGTH[name.length];
    if (rawName === name) return (raw ??= readRaw(req.rawHeaders))[rawName];
    const value = req.headers[name];
    if (value === undefined) return undefined;
    return typeof value === 'string' ? [value] : value;
  };
}

function readRaw(raw: readonly string[]): RawValues {
  const values: RawValues = {};
  for (let index = 0; index < raw.length; index += 2) {
    const key = raw[index] as string;
    const name = RAW_BY_LENGTH[key.length];
    if (name !== undefined && (key === name || key.toLowerCase() === name)) {
      (values[name] ??= []).push(raw[index + 1] as string);
    }
  }
  return values;
}

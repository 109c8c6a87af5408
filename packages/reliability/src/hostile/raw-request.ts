import type { RequestContext } from './case';

/** What {@link rawHead} puts in the request head besides the given lines. */
export interface RawHeadOptions {
  /** Send `Authorization: Bearer <valid token>`. Default true. */
  readonly auth?: boolean;
  /** Send `Content-Type: application/json`. Default true. */
  readonly json?: boolean;
  /** Send `Connection: close`, so the server ends the exchange. Default true. */
  readonly close?: boolean;
  /** The protocol of the request line. Default `HTTP/1.1`. */
  readonly version?: 'HTTP/1.1' | 'HTTP/1.0';
  /** The line ending. Default CRLF. */
  readonly eol?: string;
}

/**
 * Writes the head of `POST /plants` by hand: request line, `Host`, the defaults, the given header
 * lines, and the blank line. Raw cases append their own body bytes.
 *
 * @param context - token and host
 * @param lines - extra header lines, without line endings, such as `Content-Length: 5`
 * @param options - which defaults to send
 * @returns the head, ending with the empty line
 */
export function rawHead(
  context: RequestContext,
  lines: readonly string[],
  options: RawHeadOptions = {},
): string {
  const eol = options.eol ?? '\r\n';
  const head = [`POST ${context.path} ${options.version ?? 'HTTP/1.1'}`];
  if (options.version !== 'HTTP/1.0') head.push(`Host: ${context.host}`);
  if (options.auth !== false) head.push(`Authorization: Bearer ${context.token}`);
  if (options.json !== false) head.push('Content-Type: application/json');
  if (options.close !== false) head.push('Connection: close');
  head.push(...lines);
  return `${head.join(eol)}${eol}${eol}`;
}

/**
 * Frames a body as chunked transfer coding, one chunk per part, and the last chunk.
 *
 * @param parts - the chunks' data, in order
 * @returns the framed body
 */
export function chunked(parts: readonly string[]): string {
  const framed = parts.map((part) => `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`);
  return `${framed.join('')}0\r\n\r\n`;
}

/**
 * A valid create body for a plant without a tag.
 *
 * @param id - the id's JSON text
 * @param name - the name (JSON-escaped by this function)
 * @returns the body text
 */
export function plantBody(id: bigint | number | string, name: string): string {
  return `{"id":${String(id)},"name":${JSON.stringify(name)}}`;
}

/** Where a raw request goes, and the token it carries. */
export interface RawTarget {
  /** `127.0.0.1:<port>`, for the `Host` header. */
  readonly host: string;
  /** The route's path, e.g. `/plants`. */
  readonly path: string;
  /** A bearer token, sent unless {@link RawHeadOptions.auth} is false. */
  readonly token?: string;
}

/** What {@link rawHead} puts in the request head besides the given lines. */
export interface RawHeadOptions {
  /** Send `Authorization: Bearer <token>` (when the target has one). Default true. */
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
 * Writes the head of `POST {path}` by hand: request line, `Host`, the defaults, the given header
 * lines, and the blank line. Raw requests append their own body bytes.
 *
 * @param target - host, path and token
 * @param lines - extra header lines, without line endings, such as `Content-Length: 5`
 * @param options - which defaults to send
 * @returns the head, ending with the empty line
 * @example
 * const bytes = rawHead(target, ['Transfer-Encoding: chunked']) + chunked(['{"id":1,', '"name":"a"}']);
 */
export function rawHead(
  target: RawTarget,
  lines: readonly string[] = [],
  options: RawHeadOptions = {},
): string {
  const eol = options.eol ?? '\r\n';
  const head = [`POST ${target.path} ${options.version ?? 'HTTP/1.1'}`];
  if (options.version !== 'HTTP/1.0') head.push(`Host: ${target.host}`);
  if (options.auth !== false && target.token !== undefined) {
    head.push(`Authorization: Bearer ${target.token}`);
  }
  if (options.json !== false) head.push('Content-Type: application/json');
  if (options.close !== false) head.push('Connection: close');
  head.push(...lines);
  return `${head.join(eol)}${eol}${eol}`;
}

/**
 * The header line that declares a body: its `Content-Length`, or chunked transfer coding.
 *
 * @param framing - the declared length in bytes, or `chunked`
 * @returns the header line
 */
export function framingLine(framing: number | 'chunked'): string {
  return framing === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${framing}`;
}

/**
 * One chunk of a chunked body, with its size line.
 *
 * @param data - the chunk's text
 * @returns the framed chunk
 */
export function chunk(data: string): string {
  return `${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`;
}

/**
 * Frames a body as chunked transfer coding, one chunk per part, and the last chunk.
 *
 * @param parts - the chunks' data, in order
 * @returns the framed body
 */
export function chunked(parts: readonly string[]): string {
  return `${parts.map(chunk).join('')}0\r\n\r\n`;
}

import { connect } from 'node:net';

/** One HTTP/1.1 response read off a raw socket; header names lower-case, repeated ones joined. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Everything a raw exchange produced. */
export interface RawExchange {
  /** Every complete response, in order (pipelined bytes after a body can produce a second one). */
  readonly responses: readonly RawResponse[];
  /** Milliseconds from connecting to the server closing the socket (or the time-out). */
  readonly elapsedMs: number;
  /** Whether the server closed the connection before the time-out. */
  readonly closedByServer: boolean;
}

/** Options of {@link sendRaw}. */
export interface RawOptions {
  /** Half-close after writing: the server sees the end of the stream. Default false. */
  readonly endAfterWrite?: boolean;
  /** Give up waiting for the server to close after this long. Default 5000. */
  readonly timeoutMs?: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Writes bytes to a new connection and collects the responses until the server closes it. Nothing
 * is added or checked on the way out, so it can send what `node:http` refuses to: two
 * `Content-Length` headers, a length that lies, broken chunked framing.
 *
 * @param port - the server's port on 127.0.0.1
 * @param bytes - the whole request; a string goes out as latin1, one byte per character
 * @param options - half-close and time-out
 * @returns the responses and timing
 * @example
 * const { responses } = await sendRaw(port, rawHead(target, ['Content-Length: 5', 'Content-Length: 6']));
 */
export function sendRaw(
  port: number,
  bytes: string | Uint8Array,
  options: RawOptions = {},
): Promise<RawExchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        responses: parseResponses(Buffer.concat(chunks)),
        elapsedMs: performance.now() - started,
        closedByServer,
      });
    };
    const timer = setTimeout(() => finish(false), options.timeoutMs ?? 5000);
    socket.on('connect', () => {
      socket.write(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
      if (options.endAfterWrite === true) socket.end();
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A reset after the server answered is how some refusals end; what arrived still counts.
    socket.on('error', () => finish(true));
  });
}

/**
 * Splits a byte stream into HTTP/1.1 responses, by `Content-Length` or chunked framing; a response
 * with neither ends where the next one starts (Node's parser errors have no body).
 *
 * @param data - what the server sent
 * @returns the complete responses
 */
export function parseResponses(data: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf(HEAD_END, offset);
    if (headEnd === -1) break;
    const [statusLine = '', ...lines] = data
      .subarray(offset, headEnd)
      .toString('latin1')
      .split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    }
    let bodyStart = headEnd + HEAD_END.length;
    let body: Buffer;
    if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', bodyStart);
        if (lineEnd === -1) return responses;
        const size = Number.parseInt(data.subarray(bodyStart, lineEnd).toString('latin1'), 16);
        bodyStart = lineEnd + 2;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n', bodyStart);
          bodyStart = trailerEnd === -1 ? data.length : trailerEnd + 2;
          break;
        }
        parts.push(data.subarray(bodyStart, bodyStart + size));
        bodyStart += size + 2;
      }
      body = Buffer.concat(parts);
      offset = bodyStart;
    } else {
      const length = Number(headers['content-length'] ?? 0);
      if (bodyStart + length > data.length) break;
      body = data.subarray(bodyStart, bodyStart + length);
      offset = bodyStart + length;
    }
    responses.push({
      status: Number(statusLine.split(' ')[1]),
      headers,
      text: body.toString('utf8'),
    });
  }
  return responses;
}

import { connect } from 'node:net';
import { parseResponses, type RawResponse } from './raw-exchange';

/** The body length a client still sending declares: far over the route's limit, under a linger's. */
export const STILL_SENDING_LENGTH = 2 * 1024 * 1024;
const PIECE = Buffer.alloc(64 * 1024, 0x20);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a client still sending its body saw of an answer sent before the body was read. */
export interface StillSendingOutcome {
  /** The answers read, in full (head and body). */
  readonly responses: readonly RawResponse[];
  /** Whether the server half-closed (FIN) after the answer. */
  readonly serverEnded: boolean;
  /** The socket error met while sending on after the answer (EPIPE, ECONNRESET), if any. */
  readonly reset: string | undefined;
  /** Whether the server closed the connection within 5 s of the client ending its side. */
  readonly closedByServer: boolean;
}

/**
 * Plays a client whose body is still on its way when the answer comes, as curl's and fetch's are:
 * it declares {@link STILL_SENDING_LENGTH} bytes, sends 256 KiB, waits for the whole answer and the
 * server's FIN, then sends two more 64 KiB pieces 100 ms apart (what a client writes before it
 * notices the answer) and ends. A server that closes at once answers those pieces with a reset,
 * which can destroy an answer the client has not read yet.
 *
 * @param url - the request's URL
 * @param headers - its headers beyond `Host` and `Content-Length`
 * @returns what the client saw
 * @example
 * ```ts
 * const { responses, reset } = await sendOnAfterAnswer(new URL(`${host.url}/plants`), {});
 * ```
 */
export async function sendOnAfterAnswer(
  url: URL,
  headers: Readonly<Record<string, string>>,
): Promise<StillSendingOutcome> {
  const socket = connect({ port: Number(url.port), host: url.hostname, allowHalfOpen: true });
  const received: Buffer[] = [];
  let reset: string | undefined;
  let ended: () => void = () => undefined;
  const serverEnd = new Promise<boolean>((resolve) => {
    ended = () => resolve(true);
    setTimeout(() => resolve(false), 5_000);
  });
  const closed = new Promise<boolean>((resolve) => socket.once('close', () => resolve(true)));
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('end', ended);
  socket.on('error', (error: NodeJS.ErrnoException) => (reset ??= error.code ?? error.message));
  const lines = Object.entries({
    ...headers,
    host: url.host,
    'content-length': STILL_SENDING_LENGTH,
  });
  socket.write(
    `POST ${url.pathname} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`,
  );
  for (let piece = 0; piece < 4; piece += 1) socket.write(PIECE);
  const serverEnded = await serverEnd;
  for (let piece = 0; piece < 2 && reset === undefined; piece += 1) {
    await pause(100);
    socket.write(PIECE);
  }
  await pause(100);
  socket.end();
  const closedByServer = await Promise.race([closed, pause(5_000).then(() => false)]);
  socket.destroy();
  return { responses: parseResponses(Buffer.concat(received)), serverEnded, reset, closedByServer };
}

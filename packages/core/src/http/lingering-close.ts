import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { PlantAnswer } from './request';

/** Bytes read and thrown away after an answer that closes the connection, at most. */
export const LINGER_BYTES = 1024 * 1024;

/** Milliseconds a connection stays open after an answer that closes it, at most. */
export const LINGER_MS = 2000;

/**
 * Closes the connection gently after an answer sent before the request's body was read (Apache's
 * and nginx's "lingering close"). Node ends such an answer with `socket.destroySoon()`: the close
 * follows the answer at once, and the bytes the client is still sending then draw a TCP reset that
 * can destroy the answer before the client reads it (curl's "Send failure: Broken pipe"). Instead,
 * once the answer is written, the socket is half-closed (FIN) and the body is read and thrown away,
 * {@link LINGER_BYTES} at most; past that it is no longer read (the client's writes wait, they do
 * not fail). The connection is destroyed when the client closes its side, or after
 * {@link LINGER_MS}. Nothing happens for an answer that keeps the connection, a request whose body
 * has all arrived, or a response that is not HTTP/1 (the HTTP/2 compat API has no socket of its own).
 *
 * @param res - the Node response the answer is written to, before it is ended
 * @param answer - the core's answer
 * @example
 * ```ts
 * lingerOnClose(res, answer);
 * res.writeHead(answer.status, answer.headers).end(answer.body);
 * ```
 */
export function lingerOnClose(res: ServerResponse, answer: PlantAnswer): void {
  if (answer.headers.connection !== 'close') return;
  const { req, socket } = res;
  if (socket === null || req.complete || req.httpVersionMajor !== 1) return;
  // Node's server calls this once the answer is flushed, when the answer closes the connection.
  socket.destroySoon = () => linger(socket);
}

function linger(socket: Socket): void {
  if (socket.destroyed) return;
  socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
  // The exchange is over: Node's parser gets no more bytes (a `data` listener of ours takes them
  // from it), and what the client does now, closing or resetting, is no error of the host's.
  for (const event of ['data', 'end', 'error'] as const) socket.removeAllListeners(event);
  socket.on('error', () => socket.destroy());
  socket.on('end', () => socket.destroy());
  let left = LINGER_BYTES;
  socket.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left <= 0) socket.pause();
  });
  socket.resume();
}

import { connect } from 'node:net';
import {
  FASTIFY_MAJORS,
  type FastifyFactory,
  fastifyErrorHandler,
  startFastify,
} from '@plantstore/http-suite/hosts';
import type { FastifyInstance } from 'fastify';

// The Fastify hosts are the kit's (`@plantstore/http-suite/hosts`), shared with every runner; these
// are the names the adapter's own tests use them by.
export type { FastifyFactory };

/** Both installed majors, by name. */
export const majors = Object.entries(FASTIFY_MAJORS) as readonly (readonly [
  string,
  FastifyFactory,
])[];

/** Starts an app on 127.0.0.1, port 0; the route is expected at `{mountPath}/plants`. */
export const start = startFastify;

/**
 * Sets the host's error handler: it records each error in `calls` and answers its status (500 by
 * default) with `{host: 'error handler', message}`.
 */
export function countingErrorHandler(app: FastifyInstance, calls: unknown[] = []): unknown[] {
  fastifyErrorHandler(app, { onHostError: (error) => void calls.push(error) });
  return calls;
}

/**
 * Sends `POST {path}` with neither `Content-Length` nor `Transfer-Encoding`: a request without a
 * body, for which Fastify runs no content-type parser at all. Node's clients always add one of the
 * two, so this writes the bytes itself.
 */
export function postWithoutLength(
  url: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; text: string }> {
  const { hostname, port, pathname } = new URL(url);
  const head = [`POST ${pathname} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) head.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${head.join('\r\n')}\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const [statusLine = '', ...rest] = raw.split('\r\n');
      resolve({
        status: Number(statusLine.split(' ')[1]),
        text: rest.join('\r\n').split('\r\n\r\n')[1] ?? '',
      });
    });
  });
}

import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { ContractHost } from '@plantstore/http-suite';
import { listen } from '@plantstore/http-suite';
import type { ErrorRequestHandler, Express, RequestHandler } from 'express';
import express4 from 'express4';
import express5 from 'express5';

/** The `express` function of one major. */
export type ExpressFactory = typeof express5;

/** Both installed majors, by name. */
export const majors: readonly (readonly [string, ExpressFactory])[] = [
  ['Express 4', express4],
  ['Express 5', express5],
];

/** One way a host mounts the route. */
export interface Mounting {
  readonly name: string;
  /** Where the route ends up, as the suite's `url` path. */
  readonly path: string;
  mount(express: ExpressFactory, app: Express, route: RequestHandler): void;
}

export const mountings: readonly Mounting[] = [
  { name: 'at /', path: '', mount: (_express, app, route) => void app.use(route) },
  {
    name: 'at a prefix',
    path: '/api/v1',
    mount: (_express, app, route) => void app.use('/api/v1', route),
  },
  {
    name: 'inside a nested express.Router() at a prefix',
    path: '/api/v1',
    mount(express, app, route) {
      const outer = express.Router();
      const inner = express.Router();
      inner.use(route);
      outer.use('/v1', inner);
      app.use('/api', outer);
    },
  },
];

/** The catch-all the suite expects behind the route: 200 `host:<METHOD> <path>`. */
export const hostCatchAll: RequestHandler = (req, res) => {
  res.type('text/plain').send(`host:${req.method} ${req.originalUrl.split('?')[0] ?? ''}`);
};

/** Counts the host error middleware's calls and answers 500 `host error: <message>`. */
export function countingErrorHandler(): {
  handler: ErrorRequestHandler;
  readonly calls: unknown[];
} {
  const calls: unknown[] = [];
  const handler: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
    calls.push(error);
    const status = (error as { status?: unknown }).status;
    res
      .status(typeof status === 'number' ? status : 500)
      .json({ host: 'error handler', message: error instanceof Error ? error.message : '' });
  };
  return { handler, calls };
}

/** Starts an app on 127.0.0.1, port 0; the route is expected at `{mountPath}/plants`. */
export function start(app: Express, mountPath = ''): Promise<ContractHost> {
  return listen(createServer(app), mountPath);
}

/**
 * Sends `POST {path}` with neither `Content-Length` nor `Transfer-Encoding`: a request without a
 * body, which body-parser skips (Express 5 then leaves `req.body` undefined). Node's clients always
 * add one of the two, so this writes the bytes itself.
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

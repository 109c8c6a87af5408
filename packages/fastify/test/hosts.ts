import { type AddressInfo, connect } from 'node:net';
import type { ContractHost } from '@plantstore/http-suite';
import type { FastifyInstance, FastifyPluginCallback } from 'fastify';
import fastify4 from 'fastify4';
import fastify5 from 'fastify5';

/** The `Fastify` factory of one major. */
export type FastifyFactory = typeof fastify5;

/** Both installed majors, by name. */
export const majors: readonly (readonly [string, FastifyFactory])[] = [
  ['Fastify 4', fastify4],
  ['Fastify 5', fastify5],
];

/** One way a host registers the plugin. */
export interface Mounting {
  readonly name: string;
  /** Where the route ends up, as the suite's `url` path. */
  readonly path: string;
  mount(app: FastifyInstance, plugin: FastifyPluginCallback): void;
}

export const mountings: readonly Mounting[] = [
  { name: 'at the root', path: '', mount: (app, plugin) => void app.register(plugin) },
  {
    name: 'at a prefix',
    path: '/api/v1',
    mount: (app, plugin) => void app.register(plugin, { prefix: '/api/v1' }),
  },
  {
    name: 'inside a host plugin at a prefix',
    path: '/api/v1',
    mount(app, plugin) {
      void app.register(
        (api, _options, done) => {
          void api.register(plugin, { prefix: '/v1' });
          done();
        },
        { prefix: '/api' },
      );
    },
  },
];

/**
 * The host's own routes the suite expects beside the plugin: every other method and path answers
 * 200 `host:<METHOD> <path>`.
 */
export function hostCatchAll(app: FastifyInstance): void {
  app.all('/*', (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    return reply.type('text/plain').send(`host:${request.method} ${path}`);
  });
}

/**
 * Sets the host's error handler: it records each error in `calls` and answers its status (500 by
 * default) with `{host: 'error handler', message}`.
 */
export function countingErrorHandler(app: FastifyInstance, calls: unknown[] = []): unknown[] {
  app.setErrorHandler((error: unknown, _request, reply) => {
    calls.push(error);
    const status = (error as { statusCode?: unknown }).statusCode;
    return reply
      .code(typeof status === 'number' ? status : 500)
      .send({ host: 'error handler', message: error instanceof Error ? error.message : '' });
  });
  return calls;
}

/** Starts an app on 127.0.0.1, port 0; the route is expected at `{mountPath}/plants`. */
export async function start(app: FastifyInstance, mountPath = ''): Promise<ContractHost> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mountPath}`,
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
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

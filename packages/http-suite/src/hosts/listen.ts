import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractHost } from './target';

/**
 * Starts a server on 127.0.0.1 on a free port, and closes it with every socket destroyed.
 *
 * @param server - a `node:http` server, or the request listener to serve (an Express app is one)
 * @param mountPath - where the route is mounted inside the app
 * @returns the running host; its `url` ends with `mountPath`
 * @example
 * const host = await listen(expressHostApp(express5, plantRouter(options)));
 */
export async function listen(
  server: Server | RequestListener,
  mountPath = '',
): Promise<ContractHost & { readonly port: number; readonly server: Server }> {
  const running = typeof server === 'function' ? createServer(server) : server;
  await new Promise<void>((resolve, reject) => {
    running.once('error', reject);
    running.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = running.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mountPath}`,
    port,
    server: running,
    close: () =>
      new Promise<void>((resolve) => {
        running.close(() => resolve());
        running.closeAllConnections();
      }),
  };
}

import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractTls } from '../contract-setup';
import { tlsServer } from '../tls/tls-server';
import type { ContractHost } from './target';

/**
 * Starts a server on 127.0.0.1 on a free port, and closes it with every socket destroyed.
 *
 * @param server - a `node:http` server, or the request listener to serve (an Express app is one)
 * @param mountPath - where the route is mounted inside the app
 * @param tls - serve HTTPS with these, asking for a client certificate (a listener only)
 * @returns the running host; its `url` ends with `mountPath`, `https:` with `tls`
 * @example
 * const host = await listen(expressHostApp(express5, plantRouter(options)));
 */
export async function listen(
  server: Server | RequestListener,
  mountPath = '',
  tls?: ContractTls,
): Promise<ContractHost & { readonly port: number; readonly server: Server }> {
  const running = typeof server !== 'function' ? server : listenerServer(server, tls);
  await new Promise<void>((resolve, reject) => {
    running.once('error', reject);
    running.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = running.address() as AddressInfo;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}${mountPath}`,
    port,
    server: running,
    close: () =>
      new Promise<void>((resolve) => {
        running.close(() => resolve());
        running.closeAllConnections();
      }),
  };
}

function listenerServer(listener: RequestListener, tls: ContractTls | undefined): Server {
  // node:https's Server is node:http's over TLS: the same events and `closeAllConnections`.
  return tls === undefined ? createServer(listener) : tlsServer(listener, tls);
}

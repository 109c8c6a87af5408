import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractHost } from './contract';

/**
 * Starts a server on 127.0.0.1 on a free port, and closes it with every socket destroyed.
 *
 * @param server - a `node:http` server (Express's and Koa's listen on one too)
 * @param mountPath - where the route is mounted inside the app
 */
export async function listen(server: Server, mountPath = ''): Promise<ContractHost> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${mountPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { createServer, type Socket } from 'node:net';

/** A TCP server on 127.0.0.1 that accepts connections and never answers. */
export interface SilentServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** Ends every connection and the server. */
  close(): Promise<void>;
}

/**
 * Starts a server that accepts every connection and never sends a byte: what a store meets behind
 * a partition or a hung server, where only its own bound ends a wait.
 *
 * @returns the listening server
 */
export async function silentServer(): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    host: '127.0.0.1',
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

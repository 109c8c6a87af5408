import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** How the proxy treats connections: pass them on, refuse them, or accept and never answer. */
export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/** A TCP forwarder in front of PostgreSQL that a scenario can cut and restore. */
export interface TcpProxy {
  /** The port to point a Pool at, on 127.0.0.1; it stays the same across modes. */
  readonly port: number;
  /** Connections open now, through the proxy. */
  readonly open: number;
  /**
   * `refuse` closes the listening socket (new connections get ECONNREFUSED) and cuts every open
   * one, as a database that went away; `blackhole` cuts the open ones and accepts new ones but never
   * forwards a byte, as a network that drops packets; `forward` restores the service.
   */
  setMode(mode: ProxyMode): Promise<void>;
  /**
   * The connections open now go silent, both ways, and stay open (no FIN, no reset), as after a
   * fail-over or a partition that leaves them hanging; new ones are forwarded as before.
   */
  freezeOpen(): void;
  /** The connections open now are reset, as by a middlebox; new ones are forwarded as before. */
  cutOpen(): void;
  close(): Promise<void>;
}

/**
 * Starts a TCP proxy on 127.0.0.1 that forwards to `target`. A test points a Pool at it instead of
 * at the database, so that it can make the database unreachable without stopping the real server.
 *
 * @param target - where PostgreSQL listens
 * @returns the running proxy, in `forward` mode
 */
export async function startTcpProxy(target: {
  readonly host: string;
  readonly port: number;
}): Promise<TcpProxy> {
  let mode: ProxyMode = 'forward';
  const pairs = new Set<Socket>();
  const links = new Set<readonly [Socket, Socket]>();
  const onConnection = (client: Socket): void => {
    pairs.add(client);
    client.once('close', () => pairs.delete(client));
    client.on('error', () => client.destroy());
    if (mode === 'blackhole') return;
    const upstream = connect(target.port, target.host);
    pairs.add(upstream);
    upstream.once('close', () => {
      pairs.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    client.once('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    const link = [client, upstream] as const;
    links.add(link);
    client.once('close', () => links.delete(link));
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  const cut = (): void => {
    for (const socket of pairs) socket.destroy();
  };
  const stopListening = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    get open() {
      return pairs.size;
    },
    async setMode(next) {
      if (next === mode) return;
      cut();
      mode = next;
      if (next === 'refuse') {
        await stopListening();
      } else if (!server.listening) {
        server = createServer(onConnection);
        await listen(port);
      }
    },
    cutOpen() {
      for (const [client, upstream] of links) {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
      links.clear();
    },
    freezeOpen() {
      for (const [client, upstream] of links) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
      links.clear();
    },
    async close() {
      cut();
      await stopListening();
    },
  };
}

import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A proxy in front of MySQL that admits a few connections and refuses the others as a full server does. */
export interface CappedProxy {
  /** The port on 127.0.0.1. */
  readonly port: number;
  /** How many connections it admits at once from now on; those over it are answered 1040. */
  admit(count: number): void;
  close(): Promise<void>;
}

// An ERR packet as the server's first packet, sequence 0: 1040 ER_CON_COUNT_ERROR, SQLSTATE 08004,
// what a server at max_connections (or a proxy at its cap) greets a new connection with.
const TOO_MANY = (() => {
  const payload = Buffer.concat([
    Buffer.from([0xff, 0x10, 0x04]),
    Buffer.from('#08004Too many connections', 'latin1'),
  ]);
  const header = Buffer.from([payload.length, 0, 0, 0]);
  return Buffer.concat([header, payload]);
})();

/**
 * Starts a proxy on 127.0.0.1 in front of `target`. It forwards up to `admit` connections at once;
 * each further one is greeted with MySQL's 1040 "Too many connections" and closed, as by a server at
 * its connection limit, so that a `KILL QUERY` needing a connection of its own cannot get through.
 * With `connectionId`, the server's greeting is rewritten to announce that id instead of its own,
 * as a proxy whose connection ids are not the server's does: a kill then names another thread.
 *
 * @param target - where the server listens
 * @param options - how many to admit at first, and the id to announce
 * @returns the running proxy
 */
export async function startCappedProxy(
  target: { readonly host: string; readonly port: number },
  options: { readonly admit: number; readonly connectionId?: number },
): Promise<CappedProxy> {
  let limit = options.admit;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (open.size >= limit) {
      client.end(TOO_MANY);
      return;
    }
    open.add(client);
    const upstream = connect(target.port, target.host);
    upstream.on('error', () => upstream.destroy());
    client.once('close', () => {
      open.delete(client);
      upstream.destroy();
    });
    upstream.once('close', () => client.destroy());
    client.pipe(upstream);
    if (options.connectionId === undefined) {
      upstream.pipe(client);
      return;
    }
    const announced = options.connectionId;
    let greeting = Buffer.alloc(0);
    const onGreeting = (chunk: Buffer): void => {
      greeting = Buffer.concat([greeting, chunk]);
      if (greeting.length < 4 || greeting.length < 4 + greeting.readUIntLE(0, 3)) return;
      upstream.off('data', onGreeting);
      // The handshake's payload: protocol version, server version (NUL-terminated), connection id.
      const idAt = greeting.indexOf(0, 5) + 1;
      greeting.writeUInt32LE(announced, idAt);
      client.write(greeting);
      upstream.pipe(client);
    };
    upstream.on('data', onGreeting);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    admit(count) {
      limit = count;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

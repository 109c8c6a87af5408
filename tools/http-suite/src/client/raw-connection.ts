import { connect, type Socket } from 'node:net';

/** The status line and headers of an answer, and when they arrived (epoch milliseconds). */
export interface RawAnswer {
  readonly status: number;
  readonly head: string;
  readonly at: number;
}

/** A TCP connection to a host that writes exactly the bytes a scenario wants, when it wants. */
export interface RawConnection {
  readonly socket: Socket;
  /** Bytes handed to the socket so far (accepted by the kernel or buffered). */
  readonly written: number;
  /** Everything the server sent so far. */
  readonly received: string;
  /** The first answer's head; never settles if none comes before the socket closes. */
  readonly answered: Promise<RawAnswer>;
  /** When the socket closed, in epoch milliseconds (closed by either side). */
  readonly closed: Promise<number>;
  readonly isClosed: boolean;
  /** Writes unless the socket is closed; returns whether it wrote. */
  write(data: string | Uint8Array): boolean;
  /** Writes the pieces one by one, `intervalMs` apart, until all are written or the socket closes. */
  trickle(pieces: Iterable<string | Uint8Array>, intervalMs: number): Promise<void>;
  /** Destroys the socket at once (a client that goes away). */
  destroy(): void;
}

/**
 * Opens a TCP connection to a host.
 *
 * @param url - `http://127.0.0.1:<port>`
 * @returns the connection, once established
 * @example
 * const connection = await openRawConnection(host.url);
 * connection.write(rawHead(target, [framingLine(100)], { close: false }) + '{"id":');
 */
export function openRawConnection(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let written = 0;
  let received = '';
  let isClosed = false;
  let answer: ((value: RawAnswer) => void) | undefined;
  const answered = new Promise<RawAnswer>((resolve) => {
    answer = resolve;
  });
  const closed = new Promise<number>((resolve) => {
    socket.once('close', () => {
      isClosed = true;
      resolve(Date.now());
    });
  });
  // A server that closes early makes writes fail with EPIPE or ECONNRESET: part of the scenario.
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    const end = received.indexOf('\r\n\r\n');
    if (answer !== undefined && end !== -1) {
      const head = received.slice(0, end);
      answer({ status: Number(head.split(' ')[1]), head, at: Date.now() });
      answer = undefined;
    }
  });
  const connection: RawConnection = {
    socket,
    get written() {
      return written;
    },
    get received() {
      return received;
    },
    get isClosed() {
      return isClosed;
    },
    answered,
    closed,
    write(data) {
      if (isClosed || socket.destroyed || socket.writableEnded) return false;
      socket.write(data);
      written += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
      return true;
    },
    async trickle(pieces, intervalMs) {
      for (const piece of pieces) {
        if (!connection.write(piece)) return;
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    destroy() {
      socket.destroy();
    },
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(connection));
    socket.once('error', reject);
  });
}

import { Agent, type OutgoingHttpHeaders } from 'node:http';
import { httpSend } from '../client/http-request';

/** An answer, with lower-case header names. */
export interface HttpReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** One request of {@link KeepAliveClient.send}. */
export interface HttpOutgoing {
  /** Path after the origin, query included, e.g. `/plants?x=1`. */
  readonly path: string;
  /** Array values send the header once per value. */
  readonly headers: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array | undefined;
}

/** A client that reuses its connections, so thousands of requests cost no handshakes. */
export interface KeepAliveClient {
  send(outgoing: HttpOutgoing): Promise<HttpReply>;
  /** Destroys the pooled sockets. */
  close(): void;
}

/**
 * Creates a keep-alive client for one origin.
 *
 * @param origin - `http://127.0.0.1:<port>`
 * @param maxSockets - most connections held open at once. Default 8.
 * @returns the client
 */
export function keepAliveClient(origin: string, maxSockets = 8): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send: (outgoing) => httpSend(origin, { ...outgoing, agent }),
    close: () => agent.destroy(),
  };
}

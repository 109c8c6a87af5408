import { connect } from 'node:net';
import { STORE_TIMEOUT_MS } from '@plantstore/core/store-kit';

/**
 * What a connected `pg` client knows of its server process: enough to cancel the statement it runs,
 * over a socket of its own.
 */
export interface BackendKey {
  /** The backend's process id, from the server's BackendKeyData at connection start-up. */
  readonly processID: number;
  /** The cancel key the server gave that connection, with the process id. */
  readonly secretKey: number;
  /** The host the client connected to, or the directory of a Unix socket (it begins with `/`). */
  readonly host: string;
  readonly port: number;
}

/**
 * How a cancel request went: the server read it and closed the socket (`delivered`: any signal it
 * sent is on its way before that close), it never left this process (`not-sent`: nothing can arrive
 * later), or it may have left but was not seen through (`unknown`).
 */
export type CancelOutcome = 'delivered' | 'not-sent' | 'unknown';

// The CancelRequest code of the protocol: 1234 in the high 16 bits, 5678 in the low.
const CANCEL_REQUEST_CODE = 80_877_102;

/**
 * Reads the key of the backend a `pg` client is connected to. pg sets `processID` and `secretKey`
 * from the start-up and `host`/`port` from its resolved configuration; pg-native sets no key, and
 * a client that has not connected has none yet.
 *
 * @param client - a `pg` Client, pooled or not
 * @returns the key, or `undefined` when the client has none to offer
 */
export function backendKeyOf(client: {
  readonly processID?: number | null | undefined;
  readonly secretKey?: number | null | undefined;
  readonly host?: string | undefined;
  readonly port?: number | undefined;
}): BackendKey | undefined {
  const { processID, secretKey, host, port } = client;
  if (!isInt32(processID) || !isInt32(secretKey)) return undefined;
  if (typeof host !== 'string' || host === '' || !isPort(port)) return undefined;
  return { processID, secretKey, host, port };
}

/**
 * Asks the server to cancel whatever statement one backend runs, the way the protocol does it: a new
 * connection carrying only the 16-byte CancelRequest (process id and cancel key), which the server
 * reads, acts on and closes without an answer. It needs no pooled connection, no login and no
 * privilege. A backend that runs nothing ignores the request; a key that matches no backend (a stale
 * one, or a connection pooler's made-up one that the pooler does not forward) cancels nothing.
 *
 * The request goes unencrypted, as node-postgres's own cancel and libpq's before PostgreSQL 17 send
 * it: it reveals that connection's process id and cancel key, which allow cancelling its statements
 * and nothing more.
 *
 * @param key - the backend whose statement to cancel
 * @param timeoutMs - how long to wait for the server to close the socket
 * @returns how it went; never rejects
 */
export function sendCancelRequest(
  key: BackendKey,
  timeoutMs = STORE_TIMEOUT_MS,
): Promise<CancelOutcome> {
  return new Promise((resolve) => {
    const socket = key.host.startsWith('/')
      ? connect({ path: `${key.host}/.s.PGSQL.${key.port}` })
      : connect({ host: key.host, port: key.port });
    let sent = false;
    let settled = false;
    const finish = (outcome: CancelOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(sent ? 'unknown' : 'not-sent'), timeoutMs);
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.write(cancelRequest(key));
      sent = true;
    });
    socket.on('error', () => finish(sent ? 'unknown' : 'not-sent'));
    // The server answers nothing; reading on lets the close it sends arrive.
    socket.on('data', () => undefined);
    socket.once('close', () => finish(sent ? 'delivered' : 'not-sent'));
  });
}

function cancelRequest(key: BackendKey): Buffer {
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  message.writeInt32BE(key.processID, 8);
  message.writeInt32BE(key.secretKey, 12);
  return message;
}

function isInt32(value: unknown): value is number {
  return typeof value === 'number' && (value | 0) === value;
}

function isPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65_536;
}

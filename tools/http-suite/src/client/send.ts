import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What came back, with lower-case header names. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: unknown;
}

/** One request: `POST {base}/plants` unless told otherwise; header values may be arrays to repeat a header. */
export interface Outgoing {
  readonly method?: string;
  /** Path and query after the base URL's path. Default `/plants`. */
  readonly path?: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array | undefined;
  /** Write the headers and this part of the body, then stall without ending the request. */
  readonly stallAfter?: string | Uint8Array;
  /** A keep-alive agent to reuse connections. Default none: one connection per request. */
  readonly agent?: Agent | false;
  /** Give up, and destroy the socket, when no answer came within this long. Default 10 s. */
  readonly timeoutMs?: number;
  /** For an `https:` URL: the CA to trust, and the client certificate and key to present, if any. */
  readonly tls?: ClientTls;
}

/** What an HTTPS request trusts and presents: PEM, as `node:tls` takes them. */
export interface ClientTls {
  readonly ca: string;
  readonly cert?: string;
  readonly key?: string;
}

/**
 * Sends one request with `node:http` (`node:https` for an `https:` URL), which (unlike fetch) can repeat headers, stall, and send any
 * bytes, and reads the whole answer.
 *
 * @param baseUrl - where the route is mounted, e.g. `http://127.0.0.1:41234/api`
 * @param outgoing - method, path, headers, body
 * @returns the answer
 * @throws when the connection fails or drops, or no answer comes within `timeoutMs`
 * @example
 * const reply = await send(host.url, { body: '{"id":1,"name":"Fern"}', headers });
 */
export function send(baseUrl: string, outgoing: Outgoing = {}): Promise<Reply> {
  const url = new URL(baseUrl);
  const agent = outgoing.agent ?? false;
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...outgoing.tls,
        host: url.hostname,
        port: url.port,
        method: outgoing.method ?? 'POST',
        path: `${url.pathname.replace(/\/$/, '')}${outgoing.path ?? '/plants'}`,
        headers: outgoing.headers,
        agent,
        timeout: outgoing.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parsed(text) });
          // A stalled request is still open: end its connection, unless an agent keeps it.
          if (agent === false) req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within the time-out')));
    req.on('error', reject);
    if (outgoing.stallAfter !== undefined) {
      req.write(outgoing.stallAfter);
      req.flushHeaders();
    } else {
      req.end(outgoing.body);
    }
  });
}

/**
 * `POST {base}/plants` of a body with a bearer token and `Content-Type: application/json`; `extra`
 * changes the path or adds and overrides headers.
 *
 * @param baseUrl - where the route is mounted
 * @param token - the bearer token
 * @param body - the body, text or bytes
 * @param extra - anything else of the request
 * @returns the answer
 * @example
 * const reply = await postPlant(host.url, token, '{"id":1,"name":"Fern"}');
 */
export function postPlant(
  baseUrl: string,
  token: string,
  body: string | Uint8Array,
  extra: Outgoing = {},
): Promise<Reply> {
  return send(baseUrl, {
    ...extra,
    body,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...extra.headers,
    },
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A client that reuses its connections, so thousands of requests cost no handshakes. */
export interface KeepAliveClient {
  send(outgoing: Outgoing): Promise<Reply>;
  /** Destroys the pooled sockets. */
  close(): void;
}

/**
 * Creates a keep-alive client for one base URL.
 *
 * @param baseUrl - `http://127.0.0.1:<port>`
 * @param maxSockets - most connections held open at once. Default 8.
 * @returns the client; `close()` it after the run
 * @example
 * const client = keepAliveClient(host.url, 1);
 * const reply = await client.send({ body, headers });
 */
export function keepAliveClient(baseUrl: string, maxSockets = 8): KeepAliveClient {
  const agent = new Agent({ keepAlive: true, maxSockets });
  return {
    send: (outgoing) => send(baseUrl, { ...outgoing, agent }),
    close: () => agent.destroy(),
  };
}

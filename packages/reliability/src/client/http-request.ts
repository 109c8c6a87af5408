import {
  type Agent,
  request as httpRequest,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http';

/** An answer, its header names in lower case. */
export interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One request; `POST /plants` unless told otherwise. */
export interface Outgoing {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly body?: string | Uint8Array | undefined;
  /** Keep-alive agent to reuse connections; default none (one connection per request). */
  readonly agent?: Agent | false;
  /** Give up (and destroy the socket) after this long. Default 10 s. */
  readonly timeoutMs?: number;
}

/**
 * Sends one request with `node:http` and reads the whole answer.
 *
 * @param baseUrl - `http://127.0.0.1:<port>`
 * @param outgoing - method, path, headers, body
 * @returns the answer
 * @throws when the connection fails or drops, or the answer does not come within `timeoutMs`
 */
export function httpSend(baseUrl: string, outgoing: Outgoing = {}): Promise<Reply> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: outgoing.method ?? 'POST',
        path: outgoing.path ?? '/plants',
        headers: outgoing.headers,
        agent: outgoing.agent ?? false,
        timeout: outgoing.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within the time-out')));
    req.on('error', reject);
    req.end(outgoing.body);
  });
}
